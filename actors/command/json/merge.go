package json

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rjson"
)

// JSON.MERGE key path value [FORMAT fmt]: merges value into every place
// path matches as RFC 7386 says (null members delete, objects merge,
// anything else replaces); a path ending in a member name that matches
// nothing adds the member. A new key takes the root path only.
type merge struct {
	key   []byte
	path  path
	value []byte
}

func parseMerge(args [][]byte) (command.Runner, error) {
	m := merge{key: args[1], path: newPath(args[2]), value: args[3]}
	for i := 4; i < len(args); i++ {
		if !command.Is(args[i], "format") {
			return nil, rerr.ErrSyntax
		}
		if i++; i >= len(args) {
			return nil, rerr.ErrArity("json.merge")
		}
		if err := checkFormat(args[i]); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func (m merge) Run(c *command.Ctx) error {
	d, err := open(c, m.key)
	if err != nil {
		return err
	}
	v, err := parseValue(m.value)
	if err != nil {
		return err
	}
	switch {
	case d == nil && m.path.text != "$":
		return errAtRoot
	case d == nil:
		if _, err := rjson.Create(c.Tx, m.key, v); err != nil {
			return err
		}
		c.W.OK()
		return nil
	case m.path.text == "$":
		d.Root = rjson.Merge(d.Root, v)
		return saveOK(c, d)
	}
	q, err := m.path.query()
	if err != nil {
		return err
	}
	updated := false
	if ms := q.Eval(d.Root); len(ms) > 0 {
		for _, match := range ms {
			merged := rjson.Merge(match.V, v)
			if len(match.Path) == 0 {
				d.Root = merged
			} else {
				rjson.Replace(d.Root, match.Path, merged)
			}
		}
		updated = true
	} else if updated, err = setAt(d, q, v, true, false); err != nil {
		return err
	}
	if !updated {
		c.W.Null()
		return nil
	}
	return saveOK(c, d)
}
