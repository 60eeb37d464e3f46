// Package chunked is a byte array stored in fixed-size chunks under a
// collection key, the layout of the probabilistic types (Bloom and Cuckoo
// filters, count-min sketches, Top-K): chunk i lives at a field the type
// names, a chunk never written reads as zeros, and an operation reads
// each chunk it touches once and writes the ones it changed at Flush.
//
// Invariant: a chunk's stored length is the array's bytes it covers (the
// last may be shorter); callers keep the chunk size small enough for the
// shard's member cache (store.MaxCachedMember) so hot chunks are read
// from memory.
package chunked
