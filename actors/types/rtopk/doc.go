// Package rtopk is the Top-K type (codec.TypeTopK) on a store
// transaction, as RedisBloom's works (HeavyKeeper): depth rows of width
// buckets, each a fingerprint and a count; an item increments its bucket
// in each row when the bucket is empty or its own, and otherwise decays
// the owner's count with probability decay^count, taking the bucket when
// it reaches 0; a min-heap of k items keeps those with the largest
// counts seen.
//
// The decays draw from a pseudo-random generator whose state is part of
// the key (in its header), so a command gives the same result wherever
// it runs on the same key: a replica repeating TOPK.ADD stays equal to
// its master (RedisBloom draws from rand(), and its replicas drift).
//
// Storage: the header (k, width, depth, decay, generator) and the heap
// are one sub-key each; the buckets are chunks of codec.TopKChunk bytes
// (8 buckets), written once non-zero. The meta's size is 0.
package rtopk
