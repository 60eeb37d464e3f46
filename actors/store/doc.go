// Package store is the type-operations layer: Redis key semantics (types,
// expiry, versions, the TTL and garbage indexes) on one driver transaction,
// with a shard's meta cache in front of the meta reads.
//
// Invariants:
//   - A MetaCache entry always equals the committed meta of its key (or says
//     the key is not stored). Reads may fill the cache at once, since what a
//     transaction reads was committed; writes reach the cache only after
//     Commit succeeds, and a failed commit evicts the keys it touched.
//   - Only the shard owning a key writes its meta, so its cache needs no lock.
//   - Every write of a meta value keeps the TTL index in step in the same
//     transaction, and a collection version that dies (delete, overwrite,
//     expiry) leaves a garbage entry in the same transaction.
//   - An expired key is treated as missing by every read; writing over it
//     starts a new incarnation with a new version.
//   - On a store shared with other nodes (FlushMarkers.Shared) the cache is
//     disabled (other nodes change metas), each transaction reads its db's
//     flush marker from its own snapshot, every meta a write transaction
//     reads is locked (drivers.ReadLocker) together with the key's write
//     stamp, and every key a write transaction touches gets a new stamp
//     (stamp.go), so conflicting writes on different nodes cannot both
//     commit and WATCH sees them.
//
// Files by role: tx.go (the transaction's lifecycle and the keyspace:
// metas, types, delete, expire, rename), seen.go (the keys a transaction
// looked up), journal.go (Journal: what a transaction did that others act
// on after its commit), records.go (database records, FLUSHDB, SWAPDB),
// strings.go, collection.go, members.go, lists.go (values), sweeps.go
// (the GC's removals and counts), system.go (system records), cache.go,
// access.go, stamp.go, flush_markers.go.
package store
