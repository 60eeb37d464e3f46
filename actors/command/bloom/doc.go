// Package bloom implements the Bloom filter commands (BF.*), Redis 8's
// built-in probabilistic type from RedisBloom, on the filter type
// (actors/types/rbloom): replies, errors and defaults (error rate 0.01,
// capacity 100, expansion 2) as RedisBloom's, and SCANDUMP/LOADCHUNK in
// RedisBloom's layout so a filter moves between rekv and Redis.
//
// Invariant: a command reads and writes its filter in its one
// transaction: a BF.MADD of many items, a new sub-filter and the header
// commit together or not at all.
package bloom
