// Package cuckoo implements the Cuckoo filter commands (CF.*), Redis 8's
// built-in type from RedisBloom, on the filter type
// (actors/types/rcuckoo): RedisBloom's defaults (capacity 1024 for a
// filter CF.ADD creates, buckets of 2, 20 iterations, expansion 1, at
// most 32 sub-filters), replies and errors, and SCANDUMP/LOADCHUNK in
// RedisBloom's header layout.
//
// Invariant: a command reads and writes its filter in its one
// transaction: fingerprints displaced by an insert, a new sub-filter, a
// compaction and the counts commit together or not at all.
package cuckoo
