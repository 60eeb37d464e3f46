package store

import (
	"encoding/binary"
	"errors"

	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers"
)

// Hash field TTLs (Redis 7.4). A hash whose fields may carry TTLs has
// Meta.FieldTTL set: at or before its earliest field expiry, so a hash
// opened before that time has no expired field and costs nothing more.
// Each TTL is two records in the version's score range (codec.FieldTTLKey,
// codec.FieldOrderKey), and the hash has one hash-TTL index entry at its
// FieldTTL, which the GC walks (ExpireFields).
//
// A hash opened at or after its FieldTTL looks up its expired fields once
// (the by-time records up to now): a write transaction deletes them at
// once (Redis's lazy expiry, "hexpired"), a read-only one hides them
// (Get, Has, Scan and Size skip them).

// noteHashClass is the notification class of hash events, Redis's 'h':
// equal to command.NotifyHash, which this layer cannot import.
const noteHashClass uint16 = 1 << 6

// HasFieldTTLs reports whether some field of the hash may carry a TTL.
func (c *Coll) HasFieldTTLs() bool { return c.meta.Type == codec.TypeHash && c.meta.FieldTTL != 0 }

// Hiding reports whether a read hides expired fields of the collection
// (a read-only transaction at or past its earliest field expiry).
func (c *Coll) Hiding() bool { return c.expired != nil }

// openFields handles the expired fields of a hash just opened.
func (c *Coll) openFields() error {
	if !c.HasFieldTTLs() || c.meta.FieldTTL > c.t.now || c.prefix == nil {
		return nil
	}
	fields, err := c.dueFields(c.t.now, 0)
	if err != nil || len(fields) == 0 {
		return err
	}
	if !c.t.mt.writable {
		c.expired = make(map[string]struct{}, len(fields))
		for _, f := range fields {
			c.expired[string(f.field)] = struct{}{}
		}
		return nil
	}
	return c.purge(fields)
}

type dueField struct {
	field []byte
	at    int64
}

// dueFields returns the fields expiring at or before now, in time order,
// at most limit (0: all).
func (c *Coll) dueFields(now int64, limit int) ([]dueField, error) {
	p := codec.FieldOrderPrefix(c.t.slot, c.key, c.meta.Version)
	end := binary.BigEndian.AppendUint64(append([]byte(nil), p...), uint64(now)+1)
	var out []dueField
	err := c.t.txn.Iterate(p, end, drivers.IterOptions{KeysOnly: true, Limit: limit}, func(k, _ []byte) (bool, error) {
		at, f, err := codec.DecodeFieldOrderSuffix(k[len(p):])
		if err != nil {
			return false, err
		}
		out = append(out, dueField{append([]byte(nil), f...), at})
		return true, nil
	})
	return out, err
}

// purge deletes expired fields with their TTL records and notes
// "hexpired" once; a hash left empty is deleted.
func (c *Coll) purge(fields []dueField) error {
	for _, f := range fields {
		if err := c.Remove(f.field); err != nil {
			return err
		}
		if err := c.dropTTL(f.field, f.at); err != nil {
			return err
		}
	}
	c.t.AddNote(noteHashClass, "hexpired", c.key)
	if err := c.Grow(-int64(len(fields))); err != nil {
		return err
	}
	if !c.live {
		c.meta.FieldTTL = 0 // deleted: a hash written again starts without
	}
	return nil
}

// dropTTL deletes a field's two TTL records.
func (c *Coll) dropTTL(field []byte, at int64) error {
	if err := c.DeleteRaw(codec.FieldTTLKey(c.t.slot, c.key, c.meta.Version, field)); err != nil {
		return err
	}
	return c.DeleteRaw(codec.FieldOrderKey(c.t.slot, c.key, c.meta.Version, at, field))
}

// FieldTTL returns the expiry (unix ms) of a field, 0 if it has none.
// The caller knows the field exists.
func (c *Coll) FieldTTL(field []byte) (int64, error) {
	if !c.HasFieldTTLs() {
		return 0, nil
	}
	v, err := c.t.txn.Get(codec.FieldTTLKey(c.t.slot, c.key, c.meta.Version, field))
	if errors.Is(err, drivers.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	if len(v) != 8 {
		return 0, codec.ErrCorrupt
	}
	return int64(binary.BigEndian.Uint64(v)), nil
}

// SetFieldTTL gives an existing field the expiry at (unix ms, after now),
// replacing any it had.
func (c *Coll) SetFieldTTL(field []byte, at int64) error {
	old, err := c.FieldTTL(field)
	if err != nil {
		return err
	}
	if old == at {
		return nil
	}
	if old != 0 {
		if err := c.DeleteRaw(codec.FieldOrderKey(c.t.slot, c.key, c.meta.Version, old, field)); err != nil {
			return err
		}
	}
	if err := c.SetRaw(c.ScorePrefix(), codec.FieldTTLKey(c.t.slot, c.key, c.meta.Version, field), binary.BigEndian.AppendUint64(nil, uint64(at))); err != nil {
		return err
	}
	if err := c.SetRaw(c.ScorePrefix(), codec.FieldOrderKey(c.t.slot, c.key, c.meta.Version, at, field), nil); err != nil {
		return err
	}
	if c.meta.FieldTTL == 0 || at < c.meta.FieldTTL {
		c.meta.FieldTTL = at
		return c.save()
	}
	return nil
}

// Persist removes a field's expiry, reporting whether it had one. The
// hash's FieldTTL stays (a bound: the GC moves it up).
func (c *Coll) Persist(field []byte) (bool, error) {
	at, err := c.FieldTTL(field)
	if err != nil || at == 0 {
		return false, err
	}
	return true, c.dropTTL(field, at)
}

// ExpireFields is the GC's expiry of one hash-TTL index entry: if key is
// still a hash whose FieldTTL is at and that time has passed, its expired
// fields are deleted and the entry moves to the next expiry (or goes
// when no field has a TTL left). A stale entry is
// removed. It reports how many fields expired.
func (t *Tx) ExpireFields(key []byte, at int64) (int, error) {
	_, r, err := t.raw(key, false)
	if err != nil {
		return 0, err
	}
	if !t.live(r) || r.meta.Type != codec.TypeHash || r.meta.FieldTTL != at {
		if r.exists && r.meta.Type == codec.TypeHash && r.meta.FieldTTL == at {
			return 0, nil // expired or flushed: that sweep removes it whole
		}
		return 0, t.txn.Delete(codec.HashTTLKey(at, t.slot, key))
	}
	if at > t.now {
		return 0, nil
	}
	// Opening it in this write transaction deletes the expired fields.
	size := int64(r.meta.Size)
	c, err := t.Open(key, codec.TypeHash, false)
	if err != nil || c == nil {
		return int(size), err
	}
	expired := int(size - c.Size())
	// The next expiry, if any field still has one.
	p := codec.FieldOrderPrefix(t.slot, key, c.meta.Version)
	next := int64(0)
	err = t.txn.Iterate(p, codec.PrefixEnd(p), drivers.IterOptions{KeysOnly: true, Limit: 1}, func(k, _ []byte) (bool, error) {
		n, _, err := codec.DecodeFieldOrderSuffix(k[len(p):])
		next = n
		return false, err
	})
	if err != nil {
		return expired, err
	}
	c.meta.FieldTTL = next
	return expired, c.save()
}
