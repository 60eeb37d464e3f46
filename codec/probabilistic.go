package codec

import "encoding/binary"

// A Bloom filter (TypeBloom) keeps, under its key's version, the chain's
// header at BloomHeaderField, in the layout of RedisBloom's SCANDUMP
// header (rbloom), and each sub-filter's bits in chunks of BloomChunk
// bytes at BloomChunkField(filter, chunk); a chunk never written reads
// as zeros. The meta's size is the number of items added.

// BloomChunk is the size of a Bloom filter's bit chunks. Part of the
// format: never change it.
const BloomChunk = 512

// Bloom sub-key field tags.
const (
	BloomTagHeader byte = 0
	BloomTagChunk  byte = 1
)

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

// CMSChunk is the size of a sketch's counter chunks. Part of the format:
// never change it.
const CMSChunk = 512

// CMSHeaderField is the field of a sketch's dimensions.
var CMSHeaderField = []byte{0}

// CMSChunkField returns the field of counter chunk i: 1 | i (8).
func CMSChunkField(i uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte{1}, i)
}
