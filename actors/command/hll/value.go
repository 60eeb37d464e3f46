package hll

import (
	"errors"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/actors/types/rhll"
)

var (
	errNotHLL  = &rerr.Error{Msg: "WRONGTYPE Key is not a valid HyperLogLog string value."}
	errCorrupt = &rerr.Error{Msg: "INVALIDOBJ Corrupted HLL object detected"}
)

// replyErr maps the HLL layer's errors to Redis's replies.
func replyErr(err error) error {
	switch {
	case errors.Is(err, rhll.ErrNotHLL):
		return errNotHLL
	case errors.Is(err, rhll.ErrCorrupt):
		return errCorrupt
	}
	return err
}

// hllValue is an HLL read from a string key, with a private copy of its
// bytes to update.
type hllValue struct {
	str  *store.Str
	orig []byte // as stored
	v    []byte // the working copy
}

// header reads the 16-byte header of key's HLL (nil when the key does not
// exist) without its registers, checking what it can: a dense HLL must
// have the dense length.
func header(c *command.Ctx, key []byte) (*store.Str, []byte, error) {
	s, err := c.Tx.OpenString(key)
	if err != nil || !s.Exists() {
		return s, nil, err
	}
	h, err := s.Read(0, rhll.HeaderSize)
	if err != nil {
		return nil, nil, err
	}
	if len(h) < rhll.HeaderSize {
		return nil, nil, errNotHLL
	}
	if err := rhll.CheckHeader(h, s.Len()); err != nil {
		return nil, nil, errNotHLL
	}
	return s, h, nil
}

// load opens key's HLL; ok is false when the key does not exist.
func load(c *command.Ctx, key []byte) (h hllValue, ok bool, err error) {
	s, err := c.Tx.OpenString(key)
	if err != nil || !s.Exists() {
		return hllValue{str: s}, false, err
	}
	v, err := s.Value()
	if err != nil {
		return hllValue{}, false, err
	}
	if err := rhll.Check(v); err != nil {
		return hllValue{}, false, errNotHLL
	}
	return hllValue{str: s, orig: v, v: append([]byte(nil), v...)}, true, nil
}

// save stores the working copy, writing only the bytes that changed when
// the length stayed (a dense HLL touches one chunk); with nothing changed
// it writes nothing, unless force is set (PFMERGE always writes, and
// announces, its destination).
func (h hllValue) save(c *command.Ctx, key []byte, force bool) error {
	if h.orig == nil || len(h.v) < len(h.orig) {
		return c.Tx.SetStringKeepTTL(key, h.v)
	}
	first, last := -1, -1
	for i := range h.orig {
		if h.orig[i] != h.v[i] {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if len(h.v) > len(h.orig) {
		if first < 0 {
			first = len(h.orig)
		}
		last = len(h.v) - 1
	}
	if first < 0 {
		if !force {
			return nil
		}
		first, last = 0, rhll.HeaderSize-1
	}
	return h.str.Write(int64(first), h.v[first:last+1])
}
