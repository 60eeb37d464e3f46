package codec

import "encoding/binary"

// A JSON document (TypeJSON) is stored as its compact JSON text (as
// RedisJSON serializes it: members in their order) in chunks of
// JSONChunk bytes at JSONChunkField(i); the meta's size is the text's
// length in bytes, so the chunks are the first ceil(size / JSONChunk).

// JSONChunk is the size of a document's text chunks. Part of the format:
// never change it.
const JSONChunk = 32 << 10

// JSONChunkField returns the field of text chunk i: 1 | i (8).
func JSONChunkField(i uint64) []byte { return binary.BigEndian.AppendUint64([]byte{1}, i) }
