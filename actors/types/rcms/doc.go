// Package rcms is the count-min sketch type (codec.TypeCMS) on a store
// transaction, as RedisBloom's CMS works: depth rows of width 32-bit
// counters; an item's count is added to one counter per row (row i's
// chosen by MurmurHash2 of the item with seed i) and its estimate is the
// smallest of them, never below its true count.
//
// Storage: the dimensions are one sub-key; the counters, row after row,
// are chunks of codec.CMSChunk bytes (little-endian uint32s, as
// RedisBloom's array), written once a counter in them is non-zero. The
// meta's size is the total of all increments (CMS.INFO count).
//
// Invariant: the total changes with the counters, in the same call.
package rcms
