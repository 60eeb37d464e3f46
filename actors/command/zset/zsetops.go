package zset

import (
	"bytes"
	"encoding/binary"
	"math"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/codec"
)

// zset is an open sorted set.
type zset struct{ *store.Coll }

// Entry is a member and its score.
type Entry struct {
	Member []byte
	Score  float64
}

func open(c *command.Ctx, key []byte, create bool) (zset, bool, error) {
	coll, err := c.Tx.Open(key, codec.TypeZSet, create)
	return zset{coll}, coll != nil, err
}

func (z zset) score(member []byte) (float64, bool, error) {
	if z.Coll == nil {
		return 0, false, nil
	}
	v, ok, err := z.Get(member)
	if err != nil || !ok {
		return 0, false, err
	}
	if len(v) != 8 {
		return 0, false, codec.ErrCorrupt
	}
	return math.Float64frombits(binary.BigEndian.Uint64(v)), true, nil
}

func (z zset) indexKey(score float64, member []byte) []byte {
	p := z.ScorePrefix()
	p = binary.BigEndian.AppendUint64(p, codec.EncodeScore(score))
	return append(p, member...)
}

// put sets member's score and reports whether the member is new; the
// caller accounts for size with Grow.
func (z zset) put(member []byte, score float64) (bool, error) {
	if score == 0 {
		score = 0 // -0 is stored as 0
	}
	old, exists, err := z.score(member)
	if err != nil {
		return false, err
	}
	if exists {
		if old == score {
			return false, nil
		}
		if err := z.DeleteRaw(z.indexKey(old, member)); err != nil {
			return false, err
		}
	}
	if err := z.Put(member, binary.BigEndian.AppendUint64(nil, math.Float64bits(score))); err != nil {
		return false, err
	}
	return !exists, z.SetRaw(z.ScorePrefix(), z.indexKey(score, member), nil)
}

// remove deletes members and reports how many existed, updating the size.
func (z zset) remove(members [][]byte) (int64, error) {
	var n int64
	for _, m := range members {
		s, ok, err := z.score(m)
		if err != nil {
			return 0, err
		}
		if !ok {
			continue
		}
		if err := z.Remove(m); err != nil {
			return 0, err
		}
		if err := z.DeleteRaw(z.indexKey(s, m)); err != nil {
			return 0, err
		}
		n++
	}
	if n > 0 {
		return n, z.Grow(-n)
	}
	return 0, nil
}

// scan walks the score index (ascending, or descending with rev), calling
// fn until it returns false.
func (z zset) scan(from, to []byte, rev bool, fn func(e Entry) (bool, error)) error {
	if z.Coll == nil {
		return nil
	}
	p := z.ScorePrefix()
	n := len(p)
	visit := func(k, _ []byte) (bool, error) {
		s, m, err := codec.DecodeScoreSuffix(k[n:])
		if err != nil {
			return false, err
		}
		return fn(Entry{Member: command.Copy(m), Score: s})
	}
	if from == nil && to == nil {
		// A walk from one end: start at the known edge, past the
		// tombstones of popped entries.
		return z.ScanEdge(p, rev, visit)
	}
	if from == nil {
		from = p
	}
	if to == nil {
		to = codec.PrefixEnd(p)
	}
	return z.ScanRaw(from, to, rev, 0, visit)
}

// byRank returns the entries with ranks start..stop (Redis's index rules),
// ranks counted from the highest score with rev.
func (z zset) byRank(start, stop int64, rev bool) ([]Entry, error) {
	size := z.Size()
	if start < 0 {
		start += size
	}
	if stop < 0 {
		stop += size
	}
	start = max(start, 0)
	if start > stop || start >= size {
		return nil, nil
	}
	stop = min(stop, size-1)
	var out []Entry
	i := int64(0)
	err := z.scan(nil, nil, rev, func(e Entry) (bool, error) {
		if i >= start {
			out = append(out, e)
		}
		i++
		return i <= stop, nil
	})
	return out, err
}

// scoreBound is one end of a score range.
type scoreBound struct {
	v    float64
	excl bool
}

// parseScoreBound parses "1.5", "(1.5", "-inf", "+inf".
func parseScoreBound(b []byte) (scoreBound, error) {
	sb := scoreBound{}
	if len(b) > 0 && b[0] == '(' {
		sb.excl = true
		b = b[1:]
	}
	f, ok := command.ParseFloat(b)
	if !ok {
		return sb, rerr.Errorf("ERR min or max is not a float")
	}
	sb.v = f
	return sb, nil
}

func (b scoreBound) below(s float64) bool { return s < b.v || b.excl && s == b.v } // s is under a min bound
func (b scoreBound) above(s float64) bool { return s > b.v || b.excl && s == b.v } // s is over a max bound

// byScore returns entries with min <= score <= max (bounds as parsed), in
// ascending order or descending with rev, after skipping offset and
// keeping at most count (count < 0: all).
func (z zset) byScore(min, max scoreBound, rev bool, offset, count int64) ([]Entry, error) {
	var out []Entry
	if z.Coll == nil || count == 0 || offset < 0 {
		return nil, nil
	}
	p := z.ScorePrefix()
	lo := binary.BigEndian.AppendUint64(bytes.Clone(p), codec.EncodeScore(min.v))
	hi := codec.PrefixEnd(binary.BigEndian.AppendUint64(bytes.Clone(p), codec.EncodeScore(max.v)))
	err := z.scan(lo, hi, rev, func(e Entry) (bool, error) {
		if min.below(e.Score) || max.above(e.Score) {
			return true, nil
		}
		if offset > 0 {
			offset--
			return true, nil
		}
		out = append(out, e)
		return count < 0 || int64(len(out)) < count, nil
	})
	return out, err
}

// lexBound is one end of a lex range: "-", "+", "[x" or "(x".
type lexBound struct {
	v         []byte
	excl      bool
	neg, plus bool
}

func parseLexBound(b []byte) (lexBound, error) {
	switch {
	case len(b) == 1 && b[0] == '-':
		return lexBound{neg: true}, nil
	case len(b) == 1 && b[0] == '+':
		return lexBound{plus: true}, nil
	case len(b) > 0 && b[0] == '[':
		return lexBound{v: b[1:]}, nil
	case len(b) > 0 && b[0] == '(':
		return lexBound{v: b[1:], excl: true}, nil
	}
	return lexBound{}, rerr.Errorf("ERR min or max not valid string range item")
}

// geMin reports whether m is at or over the min bound.
func (b lexBound) geMin(m []byte) bool {
	switch {
	case b.neg:
		return true
	case b.plus:
		return false
	}
	c := bytes.Compare(m, b.v)
	return c > 0 || c == 0 && !b.excl
}

// leMax reports whether m is at or under the max bound.
func (b lexBound) leMax(m []byte) bool {
	switch {
	case b.plus:
		return true
	case b.neg:
		return false
	}
	c := bytes.Compare(m, b.v)
	return c < 0 || c == 0 && !b.excl
}

// byLex returns members within [min, max] in member order (descending with
// rev), after offset, at most count (count < 0: all).
func (z zset) byLex(min, max lexBound, rev bool, offset, count int64) ([]Entry, error) {
	if z.Coll == nil || count == 0 || offset < 0 {
		return nil, nil
	}
	var from, to []byte
	if !min.neg && !min.plus {
		from = min.v
	}
	if !max.neg && !max.plus {
		to = append(bytes.Clone(max.v), 0) // just past max, inclusive or not
	}
	var out []Entry
	err := z.Scan(from, to, rev, 0, func(m, v []byte) (bool, error) {
		if !min.geMin(m) {
			return !rev, nil
		}
		if !max.leMax(m) {
			return rev, nil
		}
		if offset > 0 {
			offset--
			return true, nil
		}
		out = append(out, Entry{Member: command.Copy(m), Score: math.Float64frombits(binary.BigEndian.Uint64(v))})
		return count < 0 || int64(len(out)) < count, nil
	})
	return out, err
}

// writeEntries writes members, with scores when withScores: RESP2 a flat
// array, RESP3 an array of [member, score] pairs.
func writeEntries(c *command.Ctx, es []Entry, withScores bool) {
	switch {
	case withScores && c.W.Proto() == 3:
		c.W.Array(len(es))
		for _, e := range es {
			c.W.Array(2)
			c.W.Bulk(e.Member)
			c.W.Double(e.Score)
		}
	case withScores:
		c.W.Array(2 * len(es))
		for _, e := range es {
			c.W.Bulk(e.Member)
			c.W.Double(e.Score)
		}
	default:
		c.W.Array(len(es))
		for _, e := range es {
			c.W.Bulk(e.Member)
		}
	}
}
