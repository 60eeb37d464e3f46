package strings

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/codec"
)

// GET key. A chunked (big) string goes from its chunks straight into the
// reply, which is sized once: no copy of the whole value in between.
type get struct{ key []byte }

func parseGet(args [][]byte) (command.Runner, error) { return get{key: args[1]}, nil }

func (g get) Run(c *command.Ctx) error {
	if m, ok, err := c.Tx.Meta(g.key); err != nil {
		return err
	} else if ok && m.Type == codec.TypeString && m.Chunked {
		if c.OnLoop && m.Size > command.LoopReplyMax {
			return &command.NotOnLoop{Reply: int64(m.Size)}
		}
		return bulkChunked(c, g.key)
	}
	v, ok, err := c.Tx.GetString(g.key)
	if err != nil {
		return err
	}
	if !ok {
		c.W.Null()
		return nil
	}
	c.W.Bulk(v)
	return nil
}

// bulkChunked replies with the chunked string at key, chunk by chunk.
func bulkChunked(c *command.Ctx, key []byte) error {
	s, err := c.Tx.OpenString(key)
	if err != nil {
		return err
	}
	c.W.BulkHeader(s.Len())
	err = s.Each(0, s.Len(), func(_ int64, b []byte, _ bool) bool {
		c.W.Raw(b)
		return true
	})
	c.W.BulkEnd()
	return err
}
