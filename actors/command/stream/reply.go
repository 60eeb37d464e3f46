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
