package json

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rjson"
)

// JSON.DEL key [path] (and JSON.FORGET): deletes the values path
// matches (a value inside another deleted one is not counted again) and
// replies how many; the root path deletes the key.
type del struct{ keyPath }

func parseDel(args [][]byte) (command.Runner, error) {
	return del{optionalPath(args, 1)}, nil
}

func (dl del) Run(c *command.Ctx) error {
	d, err := open(c, dl.key)
	if err != nil {
		return err
	}
	if d == nil {
		c.W.Int(0)
		return nil
	}
	if dl.path.text == "$" {
		if _, err := c.Tx.Delete(dl.key); err != nil {
			return err
		}
		c.W.Int(1)
		return nil
	}
	q, err := dl.path.query()
	if err != nil {
		return err
	}
	n := int64(0)
	for _, m := range rjson.Outermost(q.Eval(d.Root)) {
		if len(m.Path) == 0 {
			if _, err := c.Tx.Delete(dl.key); err != nil {
				return err
			}
			c.W.Int(n + 1)
			return nil
		}
		if rjson.Delete(d.Root, m.Path) {
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
