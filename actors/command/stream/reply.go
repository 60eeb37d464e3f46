package stream

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rstream"
)

// writeEntries writes entries as Redis does: an array of [id, [field,
// value, ...]].
func writeEntries(c *command.Ctx, es []rstream.Entry) {
	c.W.Array(len(es))
	for _, e := range es {
		c.W.Array(2)
		c.W.BulkString(formatID(e.ID))
		c.W.Array(len(e.Fields))
		for _, f := range e.Fields {
			c.W.Bulk(f)
		}
	}
}

// keyedHeader starts XREAD's reply for n streams: RESP3 a map, RESP2 an
// array of [key, entries] pairs.
func keyedHeader(c *command.Ctx, n int) {
	if c.W.Proto() == 3 {
		c.W.Map(n)
		return
	}
	c.W.Array(n)
}

// keyedEntries writes one stream of XREAD's reply.
func keyedEntries(c *command.Ctx, key []byte, es []rstream.Entry) {
	if c.W.Proto() == 2 {
		c.W.Array(2)
	}
	c.W.Bulk(key)
	writeEntries(c, es)
}
