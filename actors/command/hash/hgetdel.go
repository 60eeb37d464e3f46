package hash

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rhash"
)

// HGETDEL key FIELDS numfields field... (Redis 8.0): the fields' values
// (null for a missing one), then the fields are deleted; a hash left
// empty is deleted.
type hgetdel struct {
	key    []byte
	fields [][]byte
	err    error // reported after the key's type is checked, as Redis
}

func parseHGetDel(args [][]byte) (command.Runner, error) {
	h := hgetdel{key: args[1]}
	h.fields, h.err = fieldsAt(args, 3, numFieldsPositive)
	return h, nil
}

func (h hgetdel) Run(c *command.Ctx) error {
	coll, err := openThenCheck(c, h.key, h.err)
	if err != nil {
		return err
	}
	if coll == nil {
		nulls(c, len(h.fields))
		return nil
	}
	vals := make([]fieldValue, 0, len(h.fields))
	deleted := 0
	for _, f := range h.fields {
		v, ok, err := coll.Get(f)
		if err != nil {
			return err
		}
		if ok {
			deleted++
			if _, err := rhash.Delete(coll, [][]byte{f}); err != nil {
				return err
			}
		}
		vals = append(vals, fieldValue{v, ok})
	}
	writeValues(c, vals)
	if deleted > 0 {
		c.Tx.AddNote(uint16(command.NotifyHash), "hdel", h.key)
	}
	return nil
}
