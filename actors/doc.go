// Package actors runs commands: N shard actors, each owning serial execution
// of the keys that hash to it and an LRU cache of their metadata, plus a
// server actor for keyspace-wide reads, all children of a root guardian that
// supervises them (one-for-one restart).
//
// Invariants:
//   - A key's meta is only written by the shard owning hash(key) % N, or by a
//     command holding that shard under the barrier, so caches need no locks.
//   - Commands whose keys span several shards run on the lowest of them,
//     which first reserves the others in ascending index order (each blocks
//     its mailbox until released). All waits go from lower to higher index,
//     so the barrier cannot deadlock. The command then runs in one driver
//     transaction with those shards' caches.
//   - A reply is produced only after the command's transaction committed.
//   - A panic inside a command is recovered: the client gets
//     "ERR internal error", the transaction is discarded, the shard goes on.
package actors
