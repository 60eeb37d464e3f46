package codec

import "encoding/binary"

// A Bloom filter (TypeBloom) keeps, under its key's version, its header
// in the layout of RedisBloom's SCANDUMP header (rbloom), split so each
// piece fits the member cache: the chain's fixed part at
// BloomHeaderField, each sub-filter's at BloomLinkField(filter); and each
// sub-filter's bits in chunks of BloomChunk bytes at
// BloomChunkField(filter, chunk); a chunk never written reads as zeros.
// The meta's size is the number of items added.

// BloomChunk is the size of a Bloom filter's bit chunks: small enough
// for the shard's member cache (store.MaxCachedMember), so the chunks an
// item's bits fall in are read from memory once warm. Part of the
// format: never change it.
const BloomChunk = 64

// Bloom sub-key field tags.
const (
	BloomTagHeader byte = 0
	BloomTagChunk  byte = 1
	BloomTagLink   byte = 2
)

// BloomLinkField returns the field of sub-filter f's header: 2 | f (4).
func BloomLinkField(f uint32) []byte {
	return binary.BigEndian.AppendUint32([]byte{BloomTagLink}, f)
}

// BloomHeaderField is the field of a Bloom filter's header.
var BloomHeaderField = []byte{BloomTagHeader}

// BloomChunkField returns the field of chunk i of sub-filter f: 1 | f (4)
// | i (8).
func BloomChunkField(f uint32, i uint64) []byte {
	b := make([]byte, 0, 13)
	b = append(b, BloomTagChunk)
	b = binary.BigEndian.AppendUint32(b, f)
	return binary.BigEndian.AppendUint64(b, i)
}

// A count-min sketch (TypeCMS) keeps its width and depth (8 bytes each,
// big-endian) at CMSHeaderField and its counters, row after row, as
// little-endian uint32s in chunks of CMSChunk bytes at CMSChunkField(i);
// a chunk never written reads as zeros. The meta's size is the total of
// every increment.

// CMSChunk is the size of a sketch's counter chunks (16 counters; cached
// as Bloom chunks are). Part of the format: never change it.
const CMSChunk = 64

// CMSHeaderField is the field of a sketch's dimensions.
var CMSHeaderField = []byte{0}

// CMSChunkField returns the field of counter chunk i: 1 | i (8).
func CMSChunkField(i uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte{1}, i)
}

// A Cuckoo filter (TypeCuckoo) keeps its header (RedisBloom's packed
// CFHeader) at CuckooHeaderField and each sub-filter's buckets of 8-bit
// fingerprints in chunks of CuckooChunk bytes at CuckooChunkField(f, i);
// a chunk never written reads as zeros (empty slots). The meta's size is
// the number of items.

// CuckooChunk is the size of a Cuckoo filter's bucket chunks. Part of
// the format: never change it.
const CuckooChunk = 64

// CuckooHeaderField is the field of a Cuckoo filter's header.
var CuckooHeaderField = []byte{0}

// CuckooChunkField returns the field of chunk i of sub-filter f: 1 | f
// (8) | i (8).
func CuckooChunkField(f, i uint64) []byte {
	return binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64([]byte{1}, f), i)
}

// A Top-K (TypeTopK) keeps its header at TopKHeaderField, its heap at
// TopKHeapField and its buckets (fingerprint and count, little-endian
// uint32s, row after row) in chunks of TopKChunk bytes at
// TopKChunkField(i).

// TopKChunk is the size of a Top-K's bucket chunks. Part of the format:
// never change it.
const TopKChunk = 64

// Top-K fields.
var (
	TopKHeaderField = []byte{0}
	TopKHeapField   = []byte{2}
)

// TopKChunkField returns the field of bucket chunk i: 1 | i (8).
func TopKChunkField(i uint64) []byte { return binary.BigEndian.AppendUint64([]byte{1}, i) }

// A t-digest (TypeTDigest) keeps its header (TDigestHeaderLen bytes:
// compression, capacity, merged and unmerged nodes, compressions, merged
// and unmerged weight as big-endian int64s, then min and max as
// big-endian float64 bits) at TDigestHeaderField and its nodes (a
// little-endian float64 mean then a little-endian int64 weight, 16 bytes
// each: the merged nodes first, in mean order, then the unmerged ones as
// added) in chunks of TDigestChunk bytes at TDigestChunkField(i). Only
// the nodes the header counts are meaningful: bytes past them are left
// over from before a compression.

// TDigestChunk is the size of a t-digest's node chunks (4 nodes; cached
// by the shard's member cache). Part of the format: never change it.
const TDigestChunk = 64

// TDigestHeaderLen is the length of a t-digest's header.
const TDigestHeaderLen = 72

// TDigestHeaderField is the field of a t-digest's header.
var TDigestHeaderField = []byte{0}

// TDigestChunkField returns the field of node chunk i: 1 | i (8).
func TDigestChunkField(i uint64) []byte { return binary.BigEndian.AppendUint64([]byte{1}, i) }
