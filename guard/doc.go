// Package guard contains panics in the code clients drive, so that one
// command, one reply or one peer's message can never end the process.
//
// Invariants:
//   - Every goroutine and callback that runs client-driven code — a
//     connection command on the event loop, a storage command on a shard
//     (actors.Runtime.Step), a deferred or timer reply, a replication
//     applier, a cluster bus handler — recovers a panic at its top, through
//     Report (deferred by the caller: recover works only there) or through
//     Go and Func, which wrap a function.
//   - A recovered panic is logged once, at error level, with its value and
//     the goroutine's stack. The panicking command answers
//     "-ERR internal error" (ErrPanic, mapped by command.Reply without a
//     second log line); where the reply state is unknown, its connection
//     is closed instead. The server and every other client go on.
//   - A panic is counted (Counter), for INFO's stats.
package guard
