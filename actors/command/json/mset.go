package json

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rjson"
)

// JSON.MSET key path value [key path value ...]: JSON.SET of each
// triplet, in order, all or nothing: every value and path is checked
// before any is set. It replies OK, or nil when some triplet's path
// matched no place it could set.
type mset struct {
	triplets []triplet
}

type triplet struct {
	key   []byte
	path  path
	value []byte
}

func parseMSet(args [][]byte) (command.Runner, error) {
	if (len(args)-1)%3 != 0 {
		return nil, rerr.ErrArity("json.mset")
	}
	var m mset
	for i := 1; i < len(args); i += 3 {
		m.triplets = append(m.triplets, triplet{key: args[i], path: newPath(args[i+1]), value: args[i+2]})
	}
	return m, nil
}

func (m mset) Run(c *command.Ctx) error {
	type parsed struct {
		t triplet
		v *rjson.Value
		q *rjson.Query
	}
	docs := map[string]*rjson.Doc{}
	created := map[string]bool{} // missing keys an earlier triplet sets whole
	var all []parsed
	for _, t := range m.triplets {
		d, ok := docs[string(t.key)]
		if !ok {
			var err error
			if d, err = open(c, t.key); err != nil {
				return err
			}
			docs[string(t.key)] = d
		}
		p := parsed{t: t}
		if t.path.text != "$" {
			if d == nil && !created[string(t.key)] {
				return errAtRoot
			}
			q, err := t.path.query()
			if err != nil {
				return err
			}
			p.q = q
		}
		v, err := parseValue(t.value)
		if err != nil {
			return err
		}
		p.v = v
		if d == nil && t.path.text == "$" {
			created[string(t.key)] = true
		}
		all = append(all, p)
	}
	// Every triplet edits its document in memory; the documents are
	// checked, then saved: all or nothing.
	allSet := true
	var changed []*rjson.Doc
	for _, p := range all {
		d := docs[string(p.t.key)]
		switch {
		case d == nil:
			nd, err := rjson.New(c.Tx, p.t.key, p.v)
			if err != nil {
				return err
			}
			docs[string(p.t.key)] = nd
			changed = append(changed, nd)
		case p.q == nil:
			d.Root = p.v
			changed = append(changed, d)
		default:
			updated, err := setAt(d, p.q, p.v, false, false)
			if err != nil {
				return err
			}
			if !updated {
				allSet = false
				continue
			}
			changed = append(changed, d)
		}
	}
	for _, d := range changed {
		if err := d.Check(); err != nil {
			return err
		}
	}
	saved := map[*rjson.Doc]bool{}
	for _, d := range changed {
		if !saved[d] {
			saved[d] = true
			if err := d.Save(); err != nil {
				return err
			}
		}
	}
	if allSet {
		c.W.OK()
	} else {
		c.W.Null()
	}
	return nil
}
