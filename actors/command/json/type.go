package json

import "github.com/rekv/rekv/actors/command"

// JSON.TYPE key [path]: the type name of each match (JSONPath), or of
// the first (legacy; nil if none); nil for a missing key. RESP3 wraps
// the reply in an array.
type typeCmd struct{ keyPath }

func parseType(args [][]byte) (command.Runner, error) {
	return typeCmd{optionalPath(args, 1)}, nil
}

func (t typeCmd) Run(c *command.Ctx) error {
	d, err := open(c, t.key)
	if err != nil {
		return err
	}
	if c.W.Proto() == 3 {
		c.W.Array(1)
	}
	if d == nil {
		c.W.Null()
		return nil
	}
	q, err := t.path.query()
	if err != nil && !t.path.legacy {
		return err
	}
	var names []string
	if err == nil {
		for _, v := range q.Values(d.Root) {
			names = append(names, v.TypeName())
		}
	}
	switch {
	case !t.path.legacy:
		c.W.Array(len(names))
		for _, n := range names {
			c.W.BulkString(n)
		}
	case len(names) == 0:
		c.W.Null()
	default:
		c.W.BulkString(names[0])
	}
	return nil
}
