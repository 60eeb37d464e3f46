package json

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rjson"
)

// JSON.SET key path value [NX | XX] [FORMAT fmt]: sets the value at
// every place path matches; a path ending in a member name that matches
// nothing adds that member to the objects its parent path matches. A
// new key takes the root path only. NX and XX make it reply nil when
// the place exists or does not.
type set struct {
	key    []byte
	path   path
	value  []byte
	nx, xx bool
}

func parseSet(args [][]byte) (command.Runner, error) {
	s := set{key: args[1], path: newPath(args[2]), value: args[3]}
	for i := 4; i < len(args); i++ {
		switch a := args[i]; {
		case command.Is(a, "nx") && !s.nx && !s.xx:
			s.nx = true
		case command.Is(a, "xx") && !s.nx && !s.xx:
			s.xx = true
		case command.Is(a, "format"):
			if i++; i >= len(args) {
				return nil, rerr.ErrArity("json.set")
			}
			if err := checkFormat(args[i]); err != nil {
				return nil, err
			}
		default:
			return nil, rerr.ErrSyntax
		}
	}
	return s, nil
}

// checkFormat accepts FORMAT JSON and STRING (the same here); RedisJSON
// names its formats in capitals only.
func checkFormat(f []byte) error {
	switch string(f) {
	case "JSON", "STRING":
		return nil
	case "BSON":
		return rerr.Errorf("ERR FORMAT BSON is not supported")
	}
	return rerr.Errorf("ERR wrong format")
}

func (s set) Run(c *command.Ctx) error {
	d, err := open(c, s.key)
	if err != nil {
		return err
	}
	v, err := parseValue(s.value)
	if err != nil {
		return err
	}
	switch {
	case d == nil && s.xx:
		c.W.Null()
		return nil
	case d == nil && s.path.text != "$":
		return errAtRoot
	case d == nil:
		if _, err := rjson.Create(c.Tx, s.key, v); err != nil {
			return err
		}
		c.W.OK()
		return nil
	case s.path.text == "$":
		if s.nx {
			c.W.Null()
			return nil
		}
		d.Root = v
		return saveOK(c, d)
	}
	q, err := s.path.query()
	if err != nil {
		return err
	}
	updated, err := setAt(d, q, v, s.nx, s.xx)
	if err != nil {
		return err
	}
	if !updated {
		c.W.Null()
		return nil
	}
	return saveOK(c, d)
}

// setAt sets v where q matches in d (or adds the member q names under
// its parent's matches) as JSON.SET does; it reports whether anything
// changed.
func setAt(d *rjson.Doc, q *rjson.Query, v *rjson.Value, nx, xx bool) (bool, error) {
	if !nx {
		if ms := q.Eval(d.Root); len(ms) > 0 {
			for _, m := range ms {
				if len(m.Path) == 0 {
					d.Root = v.Clone()
				} else {
					rjson.Replace(d.Root, m.Path, v.Clone())
				}
			}
			return true, nil
		}
	}
	if xx {
		return false, nil
	}
	if !q.IsStatic() {
		return false, rerr.Errorf("Err wrong static path")
	}
	parent, name, ok := q.Parent()
	if parent == nil {
		return false, rerr.Errorf("Err path must end with object key to set")
	}
	if !ok { // ends in an index: nothing to add
		if len(q.Eval(d.Root)) == 0 {
			return false, rerr.Errorf("ERR array index out of range")
		}
		return false, nil
	}
	updated := false
	for _, p := range parent.Values(d.Root) {
		if p.Kind == rjson.Object && p.O.Index(name) < 0 {
			p.O.Set(name, v.Clone())
			updated = true
		}
	}
	return updated, nil
}

// saveOK saves d and replies OK.
func saveOK(c *command.Ctx, d *rjson.Doc) error {
	if err := d.Save(); err != nil {
		return err
	}
	c.W.OK()
	return nil
}
