package json

import (
	"errors"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rjson"
)

// JSON.MGET key [key ...] path: for each key, the value at path as
// JSON.GET gives it for one path; nil for a missing key, a key of
// another type, or a legacy path that matches nothing.
type mget struct {
	keys [][]byte
	path path
}

func parseMGet(args [][]byte) (command.Runner, error) {
	return mget{keys: args[1 : len(args)-1], path: newPath(args[len(args)-1])}, nil
}

func (m mget) Run(c *command.Ctx) error {
	q, qerr := m.path.query()
	c.W.Array(len(m.keys))
	for _, key := range m.keys {
		d, err := rjson.Open(c.Tx, key)
		switch {
		case errors.Is(err, rerr.ErrWrongType), err == nil && d == nil, err == nil && qerr != nil:
			c.W.Null()
			continue
		case err != nil:
			return err
		}
		vals := q.Values(d.Root)
		switch {
		case !m.path.legacy:
			writeJSON(c, rjson.NewArray(vals))
		case len(vals) == 0:
			c.W.Null()
		default:
			writeJSON(c, vals[0])
		}
	}
	return nil
}
