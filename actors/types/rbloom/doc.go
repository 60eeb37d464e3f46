// Package rbloom is the Bloom filter type (codec.TypeBloom) on a store
// transaction, as RedisBloom's scalable filter works: a chain of
// sub-filters, each sized from its capacity and error rate; an item
// joins the newest one, and when that one holds its capacity a new one
// is added with the capacity multiplied by the expansion rate and half
// the error rate (unless the chain is non-scaling). Items hash as
// RedisBloom hashes them (64-bit MurmurHash64A, two values combined per
// bit; filters loaded from an older 32-bit dump use MurmurHash2), and
// the header keeps RedisBloom's SCANDUMP layout, so a filter dumped
// here loads into Redis and back.
//
// Storage: the header (chain size, options, expansion, and per
// sub-filter its bytes, bits, items, error rate, bits per element, hash
// count, capacity and power-of-two exponent) is one sub-key; the bits
// are chunks of codec.BloomChunk bytes, written only once a bit in them
// is set, so reserving a huge filter writes only its header. The meta's
// size is the number of items added (BF.CARD).
//
// Invariant: the chain's item count in the header equals the sum of its
// sub-filters' counts and the meta's size; they change together, here.
package rbloom
