package strings

import (
	"github.com/rekv/rekv/actors/command"
)

// GET key. A chunked (big) string goes from its chunks straight into the
// reply, which is sized once: no copy of the whole value in between.
// It holds its key by a pointer into the command line, one word: an
// interface holds that without an allocation per GET.
type get struct{ key *[]byte }

func parseGet(args [][]byte) (command.Runner, error) { return get{key: &args[1]}, nil }

func (g get) Run(c *command.Ctx) error {
	key := *g.key
	v, m, ok, err := c.Tx.PeekString(key)
	switch {
	case err != nil:
		return err
	case !ok:
		c.W.Null()
	case m.Chunked:
		if c.OnLoop && m.Size > command.LoopReplyMax {
			return &command.NotOnLoop{Reply: int64(m.Size)}
		}
		return bulkChunked(c, key)
	default:
		c.W.Bulk(v)
	}
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
