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
//     sub-keys and score-index entries in bounded transactions, then the
//     'g' entry itself.
//
// Invariants:
//   - All progress lives in storage: a TTL entry disappears with its key, a
//     sub-key once deleted stays deleted, a 'g' entry goes last. A GC that
//     panics or restarts resumes from storage, never from memory.
//   - The GC only deletes keys under a dead version. Versions are never
//     reused, so a key re-created under the same name (a new version) is
//     never touched by the GC of its previous incarnation.
//   - Work per pass is bounded by the batch size. A pass that used its
//     whole budget (a backlog) is followed by the next at once, or after
//     the pause that keeps the rate under max keys per second; otherwise
//     the next pass comes after the interval. Passes reach keys through
//     the shards' mailboxes, so clients' commands interleave with them.
//   - On a store shared by several nodes (TiKV), a node collects only while
//     it holds the GC lease (Lease: a record taken and renewed in
//     transactions, so two nodes racing for it conflict and one wins), and
//     re-reads the flush markers before each pass.
package gc
