package command

import "time"

// CmdStat is one command run inside another: its spec, how long it took,
// and whether it answered an error.
type CmdStat struct {
	Spec   *Spec
	Took   time.Duration
	Failed bool
	// Rejected: it was refused before it ran (a script's call refused
	// for OOM, ACL, a write in a read-only script...): INFO commandstats
	// counts it in rejected_calls, not calls, as Redis does.
	Rejected bool
	// Args is the command line of one of EXEC's queued commands, which
	// the slow log shows one by one, as Redis's does (nil: a script's
	// call, which it does not).
	Args [][]byte
	// Error is the error reply the client got from it (EXEC's queued
	// commands), counted in INFO errorstats; nil: none.
	Error []byte
}

// SlowEntry is one SLOWLOG entry.
type SlowEntry struct {
	ID, Time, Micros int64
	Args             [][]byte
	Addr, Name       string
}

// LatencySample is one latency monitor sample: unix seconds, milliseconds.
type LatencySample struct{ Time, Ms int64 }

// LatencyEvent is an event's latest sample and its maximum.
type LatencyEvent struct {
	Name              string
	Time, Latest, Max int64
}

// LatencyHistogram is one command's calls and cumulative run-time
// histogram: (bucket upper bound in µs, -1 for the last; runs up to it).
type LatencyHistogram struct {
	Name    string
	Calls   int64
	Buckets [][2]int64
}
