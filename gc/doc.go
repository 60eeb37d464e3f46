// Package gc is rekv's garbage collector: a protoactor actor, child of the
// root guardian (one-for-one restart), that wakes on a timer and
//
//   - walks the TTL index ('t') from its oldest entry up to now and expires
//     those keys through their owning shard actors, so the shards' meta
//     caches stay right (a dead collection version becomes a 'g' entry);
//   - walks the metas of databases emptied by FLUSHDB (which only writes a
//     flush marker) and removes those the marker hides, through their
//     shards;
//   - walks the garbage entries ('g') and deletes each dead version's
//     sub-keys and score-index entries, found in a snapshot and deleted
//     blind (drivers.DeleteKeys: a Badger write batch, or transactions),
//     then the 'g' entry itself once its members are gone.
//
// It also evicts keys when the network front asks (Evict: Redis's
// maxmemory policies, evict.go), through their shards as expiry does.
//
// Invariants:
//   - All progress lives in storage: a TTL entry disappears with its key, a
//     sub-key once deleted stays deleted, a 'g' entry goes last. A GC that
//     panics or restarts resumes from storage, never from memory.
//   - The GC only deletes keys under a dead version. Versions are never
//     reused, so a key re-created under the same name (a new version) is
//     never touched by the GC of its previous incarnation.
//   - Nothing writes under a dead version again, so its members need no
//     conflict tracking: a snapshot lists them, blind deletes remove
//     them, and a delete repeated after a crash is harmless.
//   - Work per pass is bounded by the batch size. A pass that used its
//     whole budget (a backlog) is followed by the next at once while no
//     client sends commands, and otherwise after the pause that keeps the
//     rate under max keys per second; without a backlog the next pass
//     comes after the interval. Expiry reaches keys through the shards'
//     mailboxes (all shards at once), so clients' commands interleave
//     with it.
//   - Cursors over the TTL and garbage entries are hints kept in memory:
//     a pass goes on after the entries the last one handled instead of
//     stepping over their tombstones again, and a round that reaches the
//     end starts over from the beginning, so an entry left behind (not
//     yet due for its shard, or written behind the cursor) waits at most
//     one round.
//   - On a store shared by several nodes (TiKV), a node collects only while
//     it holds the GC lease (Lease: a record taken and renewed in
//     transactions, so two nodes racing for it conflict and one wins), and
//     re-reads the flush markers before each pass. In cluster mode
//     (Options.Owns) there is no lease: every node collects at once, each
//     the keys of the slots it owns, walking past the others' entries;
//     while a slot moves, its old and new owners may both try a key, and
//     their shards' transactions conflict so one wins. The orphan sweep,
//     whose cursor is in the store, runs on one node (Options.Sweeps).
//   - A shutdown never waits for a whole pass: Stop, called before the
//     engine stops, ends the timer pass at its next transaction (a reclaim
//     of a big collection on a slow store runs for seconds). What it
//     deleted stays deleted; a garbage entry goes only after its members,
//     so the next start finds the rest.
package gc
