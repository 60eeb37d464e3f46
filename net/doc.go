// Package net is rekv's network front: a gnet v2 event loop that parses
// RESP2/RESP3 from each connection, copies every command's arguments out of
// gnet's buffer, runs connection commands in place and hands the rest to the
// actors, then writes replies back in request order.
//
// Invariants:
//   - The event loop never waits for anything but the store: it parses,
//     copies, and dispatches, or runs a command in place of its shards
//     when they are idle and the client has nothing unanswered, or only
//     commands in the loop's pass (pass.go: one actors.Session per event
//     loop, shared by the clients read in one wake-up and ended right
//     after it, or before a connection command, which may read what it
//     wrote or wait for shards, or before a command of a member client
//     that cannot join). Consecutive multi-shard commands of a client that
//     go to the shards travel as one bundle (one barrier, one commit:
//     actors.DispatchBundle), sent before anything else of the client's
//     and at the end of OnTraffic. Scripts and blocking commands always go
//     to the shards, and so does the rest of a pass once its in-place
//     commands made 1 MiB of replies.
//   - Every command gets the connection's next sequence number. Replies,
//     whichever goroutine produces them, wait in the connection's reorder
//     buffer until all earlier ones are ready. Only the event loop writes
//     to the socket: at the end of OnTraffic, or in a Wake requested when a
//     reply arrives between reads; everything ready by then goes out in one
//     writev, so a pipeline's replies cost one syscall per wake-up.
//   - Pub/Sub messages are queued behind the replies of the commands the
//     subscriber sent before; a client whose unsent output passes its
//     output buffer limit is closed.
//   - Exactly the bytes of complete commands are discarded from the inbound
//     buffer (never Discard(0), which in gnet v2.10 discards everything).
//   - A protocol error is answered after the replies of the commands before
//     it, and then the connection is closed, as Redis does.
//   - A connection handed off (SYNC of an RDB file, sync.go) reads no
//     command after it; a goroutine gets a duplicate of its descriptor
//     only once every earlier reply has left gnet's buffer, and the
//     connection closes when that goroutine is done.
//
// Admission (admit.go) checks each command with small guards in Redis's
// order before it is parsed. The server-wide tables commands read — the
// slow log, the latency monitor, the command and error counters, the
// backups, the Pub/Sub broker, the MONITOR clients — live in package
// state; the Server embeds or holds them and records into them as
// commands run. Still here: the tracking table (tied to each client's
// tracking state), CONFIG and INFO (which read the whole server).
//
// The package shadows the standard library's net; import that one as stdnet.
package net
