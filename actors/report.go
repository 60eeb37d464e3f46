package actors

import (
	"time"

	"github.com/rekv/rekv/actors/command"
)

// timed reports a client command's execution time to the slow log hook.
// failed is whether it answered an error (an error reply a script
// returned included, as Redis counts failed_calls).
func (e *Engine) timed(req *Request, t0 time.Time, failed bool) {
	e.done(req.Client, req.Spec, req.Args, t0, failed)
}

// done is the stage every client command ends with, connection and
// storage commands alike: its time and outcome go to the slow log and
// INFO commandstats (Hooks.Slow).
func (e *Engine) done(client Replier, spec *command.Spec, args [][]byte, t0 time.Time, failed bool) {
	e.report(client, spec, args, time.Since(t0), failed)
}

// report is done with the time a command took.
func (e *Engine) report(client Replier, spec *command.Spec, args [][]byte, took time.Duration, failed bool) {
	switch {
	case e.hooks.Slow != nil && args != nil:
		e.hooks.Slow(client, spec, args, took, failed)
	case spec != nil && spec.Flags&command.RunsQueued != 0 && e.rt.Server.Status != nil:
		// EXEC has no Args (it is not slow-logged, as in Redis) but is
		// counted in INFO commandstats.
		e.rt.Server.Status.CommandDone(spec, took, failed)
	}
}

// countNested counts the commands run inside others (command.CmdStat)
// of client (nil: not known): EXEC's go to the slow log too.
func (e *Engine) countNested(client Replier, stats []command.CmdStat) {
	if e.rt.Server.Status == nil {
		return
	}
	for _, st := range stats {
		switch {
		case st.Spec == nil: // an error only: a script's call of an unknown command, an error in a script's reply
		case st.Rejected:
			e.rt.Server.Status.CommandRejected(st.Spec)
		case st.Args != nil && client != nil && e.hooks.Slow != nil:
			e.hooks.Slow(client, st.Spec, st.Args, st.Took, st.Failed) // commandstats too
		default:
			e.rt.Server.Status.CommandDone(st.Spec, st.Took, st.Failed)
		}
		if st.Error != nil {
			e.rt.Server.Status.ErrorReplied(st.Error)
		}
	}
}
