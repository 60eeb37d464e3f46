package net

// StartMonitor implements command.Client (MONITOR).
func (cl *client) StartMonitor() { cl.srv.AddMonitor(cl) }
