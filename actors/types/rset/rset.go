package rset

import (
	"bytes"

	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/resp"
)

// Open returns key's set (nil if missing and not create).
func Open(tx *store.Tx, key []byte, create bool) (*store.Coll, error) {
	return tx.Open(key, codec.TypeSet, create)
}

// IsMember reports whether m is in s (a nil s is empty).
func IsMember(s *store.Coll, m []byte) (bool, error) {
	if s == nil {
		return false, nil
	}
	ok, err := s.Has(m)
	return ok, err
}

// Add inserts members and reports how many were new. A set that gets a
// member that is not an integer, or grows past intsetMax members
// (set-max-intset-entries), is marked converted: Redis turns its intset
// into a hashtable then, and keeps it one (OBJECT ENCODING).
func Add(s *store.Coll, members [][]byte, intsetMax int64) (int64, error) {
	var n int64
	convert := false
	for _, m := range members {
		ok, err := IsMember(s, m)
		if err != nil {
			return 0, err
		}
		if ok {
			continue
		}
		if err := s.Put(m, nil); err != nil {
			return 0, err
		}
		if !s.Converted() && !convert {
			_, isInt := resp.ParseInt(m) // Redis's string2ll
			convert = !isInt
		}
		n++
	}
	if n == 0 {
		return 0, nil
	}
	if !s.Converted() && (convert || s.Size()+n > intsetMax) {
		s.Convert()
	}
	return n, s.Grow(n)
}

// Remove deletes members and reports how many were present.
func Remove(s *store.Coll, members [][]byte) (int64, error) { return s.RemoveFields(members) }

// Members returns every member of s in byte order.
func Members(s *store.Coll) ([][]byte, error) {
	if s == nil {
		return nil, nil
	}
	var out [][]byte
	err := s.Scan(nil, nil, false, 0, func(m, _ []byte) (bool, error) {
		out = append(out, bytes.Clone(m))
		return true, nil
	})
	return out, err
}
