// Package tracking is the table behind client-side caching (CLIENT
// TRACKING): which clients read which keys in default mode, and which
// clients asked for which prefixes in BCAST mode, with the counts INFO
// reports. Package net owns the clients and sends the invalidation
// messages; this package only keeps the table.
//
// Invariants: the table has one lock, taken before any client's lock
// (a sender of invalidations locks a client while the table is locked,
// never the other way round); the methods named ...Locked need the
// caller to hold it (Lock, Unlock), the others take it or read atomics.
// items is the number of (key, client) pairs; Keys, the number of keys,
// is also kept in an atomic so that a write with no tracking client and
// no tracked key costs two atomic loads (Idle). A key leaves the table
// when it is invalidated (Take), so one read earns one message.
package tracking
