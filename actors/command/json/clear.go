package json

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rjson"
)

// JSON.CLEAR key [path]: empties the non-empty arrays and objects and
// zeroes the non-zero numbers path matches, and replies how many it
// changed.
type clearCmd struct{ keyPath }

func parseClear(args [][]byte) (command.Runner, error) {
	if len(args) > 3 {
		return nil, rerr.ErrArity("json.clear")
	}
	return clearCmd{optionalPath(args, 1)}, nil
}

func (cl clearCmd) Run(c *command.Ctx) error {
	d, err := mustOpen(c, cl.key)
	if err != nil {
		return err
	}
	q, err := cl.path.query()
	if err != nil {
		return err
	}
	n := int64(0)
	for _, m := range q.Eval(d.Root) {
		if v := rjson.At(d.Root, m.Path); v != nil && rjson.Clear(v) {
			n++
		}
	}
	if n > 0 {
		if err := d.Save(); err != nil {
			return err
		}
	}
	c.W.Int(n)
	return nil
}
