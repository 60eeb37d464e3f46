package hash

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rhash"
)

// HGETEX key [EX seconds | PX ms | EXAT unix-seconds | PXAT unix-ms |
// PERSIST] FIELDS numfields field... (Redis 8.0): the fields' values, and
// each existing field gets the expiry (or loses its TTL with PERSIST); an
// expiry not in the future deletes the fields.
type hgetex struct {
	key     []byte
	when    expiry
	expire  bool
	persist bool
	fields  [][]byte
	err     error // reported after the key's type is checked, as Redis
}

func parseHGetEx(args [][]byte) (command.Runner, error) {
	h := &hgetex{key: args[1]}
	h.err = h.parse(args)
	return h, nil
}

func (h *hgetex) parse(args [][]byte) error {
	at := 3
	opt := args[2]
	switch {
	case command.Is(opt, "persist"):
		h.persist, at = true, 4
	case command.Is(opt, "ex"), command.Is(opt, "px"), command.Is(opt, "exat"), command.Is(opt, "pxat"):
		seconds := command.Is(opt, "ex") || command.Is(opt, "exat")
		relative := command.Is(opt, "ex") || command.Is(opt, "px")
		var err error
		if h.when, err = parseExpiry("hgetex", args[3], seconds, relative); err != nil {
			return err
		}
		h.expire, at = true, 5
	}
	var err error
	h.fields, err = fieldsAt(args, at, numFieldsPositive)
	return err
}

func (h *hgetex) Run(c *command.Ctx) error {
	coll, err := openThenCheck(c, h.key, h.err)
	if err != nil {
		return err
	}
	var at int64
	if h.expire {
		if at, err = h.when.check("hgetex", c.Now); err != nil {
			return err
		}
	}
	if coll == nil {
		nulls(c, len(h.fields))
		return nil
	}
	vals := make([]fieldValue, 0, len(h.fields))
	var persisted int
	var set, deleted [][]byte
	for _, f := range h.fields {
		v, ok, err := coll.Get(f)
		if err != nil {
			return err
		}
		vals = append(vals, fieldValue{v, ok})
		switch {
		case !ok:
		case h.persist:
			had, err := coll.Persist(f)
			if err != nil {
				return err
			}
			if had {
				persisted++
			}
		case h.expire && at <= c.Now:
			if _, err := rhash.Delete(coll, [][]byte{f}); err != nil {
				return err
			}
			deleted = append(deleted, f)
		case h.expire:
			if err := coll.SetFieldTTL(f, at); err != nil {
				return err
			}
			set = append(set, f)
		}
	}
	writeValues(c, vals)
	switch {
	case persisted > 0:
		c.Tx.AddNote(uint16(command.NotifyHash), "hpersist", h.key)
	case len(set) > 0:
		c.Tx.AddNote(uint16(command.NotifyHash), "hexpire", h.key)
	case len(deleted) > 0:
		c.Tx.AddNote(uint16(command.NotifyHash), "hdel", h.key)
	}
	if h.expire {
		fieldTTLEffect(c, h.key, at, set, deleted) // PERSIST goes as sent
	}
	return nil
}
