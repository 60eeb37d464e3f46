package command

import (
	"strconv"

	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/glob"
)

// ScanOpts are the arguments shared by SCAN, HSCAN, SSCAN and ZSCAN.
type ScanOpts struct {
	Cursor   uint64
	Pattern  []byte // nil: match all
	Count    int64
	Type     []byte // SCAN only
	NoValues bool   // HSCAN only
}

// ParseScan parses "cursor [MATCH p] [COUNT n] ..." starting at args[at];
// withType and withNoValues enable SCAN's TYPE and HSCAN's NOVALUES.
func ParseScan(args [][]byte, at int, withType, withNoValues bool) (ScanOpts, error) {
	cur, err := strconv.ParseUint(string(args[at]), 10, 64)
	if err != nil {
		return ScanOpts{}, rerr.ErrInvalidCursor
	}
	o := ScanOpts{Cursor: cur, Count: 10}
	for i := at + 1; i < len(args); i++ {
		opt := args[i]
		if withNoValues && Is(opt, "novalues") {
			o.NoValues = true
			continue
		}
		if i+1 >= len(args) {
			return ScanOpts{}, rerr.ErrSyntax
		}
		val := args[i+1]
		i++
		switch {
		case Is(opt, "count"):
			if o.Count, err = Int(val); err != nil {
				return ScanOpts{}, err
			}
			if o.Count < 1 {
				return ScanOpts{}, rerr.ErrSyntax
			}
		case Is(opt, "match"):
			o.Pattern = val
		case withType && Is(opt, "type"):
			o.Type = val
		default:
			return ScanOpts{}, rerr.ErrSyntax
		}
	}
	return o, nil
}

// Matches reports whether name passes the MATCH pattern.
func (o ScanOpts) Matches(name []byte) bool {
	return o.Pattern == nil || string(o.Pattern) == "*" || glob.Match(o.Pattern, name, false)
}

// WriteScanReply writes [cursor, [items...]].
func WriteScanReply(c *Ctx, cursor uint64, items [][]byte) {
	c.W.Array(2)
	c.W.Bulk(strconv.AppendUint(nil, cursor, 10))
	c.W.Array(len(items))
	for _, it := range items {
		c.W.Bulk(it)
	}
}

// ScanMembers pages through coll's members (in sub-key order) from the
// cursor in o, passing matching ones to add, and returns the next cursor.
func ScanMembers(c *Ctx, coll *store.Coll, o ScanOpts, add func(field, val []byte)) (uint64, error) {
	scope := store.Scope(c.DB, coll.Key())
	var from []byte
	if o.Cursor != 0 {
		var ok bool
		if from, ok = c.Cursors.Load(scope, o.Cursor); !ok {
			return 0, nil
		}
	}
	var next []byte
	seen := int64(0)
	err := coll.Scan(from, nil, false, 0, func(f, v []byte) (bool, error) {
		if seen == o.Count {
			next = Copy(f)
			return false, nil
		}
		seen++
		if o.Matches(f) {
			add(Copy(f), Copy(v))
		}
		return true, nil
	})
	if err != nil || next == nil {
		return 0, err
	}
	return c.Cursors.Save(scope, next), nil
}
