// Package actors runs commands: N shard actors, each owning serial execution
// of the keys that hash to it and a cache of their metadata (CLOCK
// eviction, an approximation of LRU: store.MetaCache), of their
// collections' members and of windows of their hot lists' elements, all
// children of a root guardian that supervises them (one-for-one restart).
//
// Invariants:
//   - A key's meta is only written by the shard owning hash(key) % N, or by a
//     command holding that shard under the barrier, so caches need no locks.
//   - A command whose keys span several shards is dispatched as one barrier
//     message queued at each of its shards, all of these sends under one
//     lock, so every mailbox holds multi-shard commands in the same global
//     order. A shard that reaches the barrier commits its open group and
//     stays locked (its goroutine goes on, and blocks only if it has a next
//     message); the last of the shards to reach it runs the command,
//     holding them all, then unlocks them all. The earliest pending
//     multi-shard command therefore always finds its shards and completes,
//     so the barrier cannot deadlock, and no later command of the same
//     client overtakes it on any shard. The command runs in one driver
//     transaction with those shards' caches; so does a bundle of one
//     client's consecutive multi-shard commands (bundle.go), which shares
//     one barrier over the union of their shards. A client with nothing
//     unanswered may join its multi-shard commands to the barrier sent
//     last, until that one starts, when it holds all their shards: they
//     run at its place in every mailbox, in its transaction, ahead of
//     commands of other clients queued behind it that have not run yet,
//     which is one more serial order (Engine.join).
//   - Keyspace-wide commands (KEYS, SCAN, DBSIZE, INFO, FLUSHDB) hold every
//     shard, so they see all earlier writes of their client and never run
//     at the same time as each other.
//   - A reply is produced only after the command's transaction committed.
//   - Each shard's mailbox passes run on that shard's own long-lived
//     goroutine (dispatch.go), one pass at a time as protoactor guarantees;
//     a shard waiting for its lock blocks only its own goroutine.
//   - Whoever runs a shard's commands holds its lock (shard.mu): the
//     shard's goroutine for each message, a barrier until its command has
//     run (whichever shard's goroutine runs it unlocks the others), or an
//     event loop running commands in place of idle shards (RunHere and
//     Session: only tried, never waited for, so it cannot deadlock; only
//     for a client with no earlier command unanswered, or all of them in
//     the same session, so it overtakes nothing of that client's). Caches
//     and open groups are touched only under it.
//   - A panic inside a command is recovered: the client gets
//     "ERR internal error", the transaction is discarded, the shard goes on.
//   - Replication (feed.go): once a Sink is set, every writable
//     transaction records its writes' effects (store.Effect: the command
//     lines a replica runs, from command.Ctx.Effect or the command as
//     sent), and every commit holds the feed's read lock from before the
//     driver commit until the sink has them, with the shards still held.
//     A transaction begun before the sink was set fails its commit with a
//     conflict and runs again, so no committed write misses the stream.
//   - On a store shared with other nodes (Options.Shared) the shards still
//     order this node's commands, but other nodes write the same keys: the
//     meta caches are off, conflicts are retried with back-off (then
//     TRYAGAIN), reads are never group committed (a group's snapshot may
//     predate a write another node acknowledged before the read arrived)
//     but run on goroutines of their own at a snapshot stamp the shard
//     asked for in its order, which reads that arrived before it share
//     (snapshot.go), writes that arrive together are queued and run as one
//     group whose first round trip reads all their keys (batch.go),
//     WATCH also compares write stamps, and keys with blocked clients are
//     re-checked every 50 ms (poll.go).
//   - In cluster mode on a shared store (Options.Owned) no other node
//     writes the keys of the slots this node serves: the meta caches are
//     on and authoritative for them, and a read found whole in its shard's
//     cache is answered there or on the event loop without the store
//     (owned.go); every commit first checks that the node still serves
//     the slots it wrote (Options.Serves), under the feed's read lock, so
//     a Quiesce after a new slot map is published is the barrier after
//     which no write of a slot given away commits.
package actors
