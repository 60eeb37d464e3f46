// Package bus carries the messages that cross rekv nodes sharing one
// store: Pub/Sub messages (with keyspace notifications), keys that became
// ready for blocked clients, and client-side caching invalidations. Each
// node listens on a bus address and keeps one outbound TCP connection to
// every other live node (the peers its membership reads from the store).
//
// Invariants:
//   - Messages to one peer leave in the order Send was called, through
//     one queue and one connection: what one client published reaches
//     every other node in order.
//   - At most once: a message is written once; a message a broken
//     connection swallowed is not sent again, and a peer's full queue
//     drops what does not fit (counted in Stats, logged once per peer
//     outage). Nothing waits on a peer: Send never blocks.
//   - A peer that cannot be reached is reported (Stats.Unreachable, the
//     log once when it goes and once when it comes back) and dialled again
//     every second while it stays a member.
//   - Frames are kind (1) | length (4) | payload; a frame over MaxFrame
//     or of an unknown kind ends the connection (the sender reconnects).
package bus
