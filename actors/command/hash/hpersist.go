package hash

import (
	"github.com/rekv/rekv/actors/command"
)

// HPERSIST key FIELDS numfields field...: each field answers 1 (its TTL
// removed), -1 (it had none) or -2 (no such field).
type hpersist struct {
	key    []byte
	fields [][]byte
	err    error // reported after the key's type is checked, as Redis
}

func parseHPersist(args [][]byte) (command.Runner, error) {
	h := hpersist{key: args[1]}
	h.fields, h.err = fieldsAt(args, 3, numFieldsPositive)
	return h, nil
}

func (h hpersist) Run(c *command.Ctx) error {
	coll, err := openThenCheck(c, h.key, h.err)
	if err != nil {
		return err
	}
	if coll == nil {
		ints(c, len(h.fields), -2)
		return nil
	}
	out := make([]int64, 0, len(h.fields))
	changed := false
	for _, f := range h.fields {
		ok, err := coll.Has(f)
		if err != nil {
			return err
		}
		if !ok {
			out = append(out, -2)
			continue
		}
		had, err := coll.Persist(f)
		if err != nil {
			return err
		}
		if had {
			out = append(out, 1)
			changed = true
		} else {
			out = append(out, -1)
		}
	}
	writeInts(c, out)
	if changed {
		c.Tx.AddNote(uint16(command.NotifyHash), "hpersist", h.key)
	}
	return nil
}
