package hash

import (
	"github.com/rekv/rekv/actors/command"
)

// HTTL key FIELDS numfields field..., and HPTTL, HEXPIRETIME,
// HPEXPIRETIME: each field's remaining time (or expiry time), -1 for a
// field without one, -2 for no such field.
type httl struct {
	key      []byte
	seconds  bool
	absolute bool
	fields   [][]byte
	err      error // reported after the key's type is checked, as Redis
}

func httlParser(seconds, absolute bool) func([][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) {
		h := httl{key: args[1], seconds: seconds, absolute: absolute}
		h.fields, h.err = fieldsAt(args, 3, numFieldsPositive)
		return h, nil
	}
}

func (h httl) Run(c *command.Ctx) error {
	coll, err := openThenCheck(c, h.key, h.err)
	if err != nil {
		return err
	}
	if coll == nil {
		ints(c, len(h.fields), -2)
		return nil
	}
	out := make([]int64, 0, len(h.fields))
	base := c.Now
	if h.absolute {
		base = 0
	}
	for _, f := range h.fields {
		ok, err := coll.Has(f)
		if err != nil {
			return err
		}
		if !ok {
			out = append(out, -2)
			continue
		}
		at, err := coll.FieldTTL(f)
		switch {
		case err != nil:
			return err
		case at == 0:
			out = append(out, -1)
		case at <= c.Now:
			out = append(out, -2)
		case h.seconds:
			out = append(out, (at+999-base)/1000)
		default:
			out = append(out, at-base)
		}
	}
	writeInts(c, out)
	return nil
}
