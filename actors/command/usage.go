package command

import "github.com/rekv/rekv/codec"

// usageEntryFraming is what a member's stored key adds to its field and
// value in Usage's estimate.
const usageEntryFraming = 16

// Usage estimates the bytes key takes in storage (MEMORY USAGE, and what
// evicting it frees): its name and meta record, plus a string's bytes,
// or a collection's size times the mean stored size (field and value,
// plus usageEntryFraming) of up to samples members read in key order (0:
// every member). ok is false when the key does not exist.
func Usage(c *Ctx, key []byte, samples int64) (size int64, ok bool, err error) {
	meta, ok, err := c.Tx.Meta(key)
	if err != nil || !ok {
		return 0, false, err
	}
	size = int64(len(key)) + 24
	if meta.Type == codec.TypeString {
		s, err := c.Tx.OpenString(key)
		if err != nil {
			return 0, false, err
		}
		return size + s.Len(), true, nil
	}
	coll, err := c.Tx.Open(key, meta.Type, false)
	if err != nil || coll == nil {
		return size, err == nil, err
	}
	var n, bytes int64
	err = coll.Scan(nil, nil, false, int(samples), func(f, v []byte) (bool, error) {
		n++
		bytes += int64(len(f)+len(v)) + usageEntryFraming
		return samples == 0 || n < samples, nil
	})
	if err != nil {
		return 0, false, err
	}
	if n > 0 {
		size += bytes * coll.Size() / n
	}
	return size, true, nil
}
