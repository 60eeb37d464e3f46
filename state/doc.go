// Package state holds server-wide tables that commands read through
// command.Server and that the network front fills as commands run: the
// slow log, the latency monitor, the per-command statistics (calls, time,
// failures, rejections, a run-time histogram) with the error counts, and
// the backups of SAVE and BGSAVE (Saver), the Pub/Sub broker and the
// MONITOR clients. It knows connections only as Subscribers (a protocol
// and a way to deliver bytes), and nothing of the event loop.
//
// Invariants:
//   - Every method is safe for concurrent use: the event loops and the
//     shards record into the same tables.
//   - Tables are bounded: the slow log by slowlog-max-len, the latency
//     monitor by 160 samples per event, the error counts by 128 codes.
//   - Entries copy what they keep: a command's arguments are reused
//     buffers once it has run.
package state
