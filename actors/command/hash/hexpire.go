package hash

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/actors/types/rhash"
)

// HEXPIRE key seconds [NX | XX | GT | LT] FIELDS numfields field...,
// and HPEXPIRE, HEXPIREAT, HPEXPIREAT. Each field answers -2 (no such
// field), 0 (the condition is not met), 1 (TTL set) or 2 (deleted: the
// time is not in the future).
type hexpire struct {
	name           string
	key            []byte
	when           expiry
	nx, xx, gt, lt bool
	fields         [][]byte
	err            error // reported after the key's type is checked, as Redis
}

func hexpireParser(name string, seconds, relative bool) func([][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) {
		h := &hexpire{name: name, key: args[1]}
		h.err = h.parse(args, seconds, relative)
		return h, nil
	}
}

func (h *hexpire) parse(args [][]byte, seconds, relative bool) error {
	var err error
	if h.when, err = parseExpiry(h.name, args[2], seconds, relative); err != nil {
		return err
	}
	at := 4
	switch {
	case command.Is(args[3], "nx"):
		h.nx = true
	case command.Is(args[3], "xx"):
		h.xx = true
	case command.Is(args[3], "gt"):
		h.gt = true
	case command.Is(args[3], "lt"):
		h.lt = true
	default:
		at = 3
	}
	h.fields, err = fieldsAt(args, at+1, numFieldsGreater)
	return err
}

func (h *hexpire) Run(c *command.Ctx) error {
	coll, err := openThenCheck(c, h.key, h.err)
	if err != nil {
		return err
	}
	at, err := h.when.check(h.name, c.Now)
	if err != nil {
		return err
	}
	if coll == nil {
		ints(c, len(h.fields), -2)
		return nil
	}
	codes := make([]int64, 0, len(h.fields))
	var updated, deleted [][]byte
	for _, f := range h.fields {
		code, err := h.one(coll, f, at, c.Now)
		if err != nil {
			return err
		}
		switch code {
		case 1:
			updated = append(updated, f)
		case 2:
			deleted = append(deleted, f)
		}
		codes = append(codes, code)
	}
	writeInts(c, codes)
	if len(deleted) > 0 {
		c.Tx.AddNote(uint16(command.NotifyHash), "hdel", h.key)
	} else if len(updated) > 0 {
		c.Tx.AddNote(uint16(command.NotifyHash), "hexpire", h.key)
	}
	fieldTTLEffect(c, h.key, at, updated, deleted)
	return nil
}

// one applies the expiry to one field and returns its code.
func (h *hexpire) one(coll *store.Coll, f []byte, at, now int64) (int64, error) {
	ok, err := coll.Has(f)
	if err != nil || !ok {
		return -2, err
	}
	prev, err := coll.FieldTTL(f)
	if err != nil {
		return 0, err
	}
	if prev == 0 && (h.xx || h.gt) || prev != 0 && (h.nx || h.gt && prev >= at || h.lt && prev <= at) {
		return 0, nil
	}
	if at <= now {
		_, err := rhash.Delete(coll, [][]byte{f})
		return 2, err
	}
	return 1, coll.SetFieldTTL(f, at)
}
