// Package rcuckoo is the Cuckoo filter type (codec.TypeCuckoo) on a
// store transaction, as RedisBloom's works: buckets of bucketSize 8-bit
// fingerprints in power-of-two sub-filters; an item's fingerprint
// (MurmurHash64A % 255 + 1) lives in one of its two buckets (the hash,
// and the hash xor the fingerprint times 0x5bd1e995), displacing others
// up to maxIterations times; a full filter grows by a sub-filter
// expansion^n times the first's buckets (none when expansion is 0);
// deletions past a tenth of the items compact newer sub-filters into
// older ones.
//
// Storage: the header (RedisBloom's SCANDUMP header: items, buckets,
// deletions, sub-filters, bucket size, iterations, expansion) is one
// sub-key; each sub-filter's buckets are chunks of codec.CuckooChunk
// bytes, written once non-zero. The meta's size is the number of items.
//
// Invariant: the header's item count equals the meta's size; both
// change in the call that adds or deletes.
package rcuckoo
