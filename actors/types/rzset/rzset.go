package rzset

import (
	"bytes"
	"encoding/binary"
	"math"

	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/codec"
)

// ZSet is an open sorted set.
type ZSet struct{ *store.Coll }

// Entry is a member and its score.
type Entry struct {
	Member []byte
	Score  float64
}

func Open(tx *store.Tx, key []byte, create bool) (ZSet, bool, error) {
	coll, err := tx.Open(key, codec.TypeZSet, create)
	return ZSet{coll}, coll != nil, err
}

func (z ZSet) Score(member []byte) (float64, bool, error) {
	if z.Coll == nil {
		return 0, false, nil
	}
	v, ok, err := z.Get(member)
	if err != nil || !ok {
		return 0, false, err
	}
	s, err := DecodeScore(v)
	return s, err == nil, err
}

// Batch sets members' scores and keeps the set's size: Set writes one
// member, Close adds the new ones to the size, once for the batch (a
// ZADD of thousands of members writes its meta once), and marks the set
// converted when they convert it (codec.ListpackLimits: a new member
// counts). A batch not closed leaves the
// size wrong: every batch ends with Close.
type Batch struct {
	z       ZSet
	lim     codec.ListpackLimits
	added   int64
	convert bool // a new member longer than lim.Value
}

// Batch starts a batch of writes.
func (z ZSet) Batch(lim codec.ListpackLimits) *Batch { return &Batch{z: z, lim: lim} }

// Set sets member's score and reports whether the member is new.
func (b *Batch) Set(member []byte, score float64) (bool, error) {
	isNew, err := b.z.setScore(member, score)
	if isNew {
		b.added++
		b.convert = b.convert || int64(len(member)) > b.lim.Value
	}
	return isNew, err
}

// Close counts the batch's new members in the set's size and returns how
// many there were.
func (b *Batch) Close() (int64, error) {
	n := b.added
	b.added = 0
	if n == 0 {
		return 0, nil
	}
	if !b.z.Converted() && (b.convert || b.z.Size()+n > b.lim.Entries) {
		b.z.Convert()
	}
	b.convert = false
	return n, b.z.Grow(n)
}

// SetAll sets every entry's score and returns how many members were new.
func (z ZSet) SetAll(es []Entry, lim codec.ListpackLimits) (int64, error) {
	b := z.Batch(lim)
	for _, e := range es {
		if _, err := b.Set(e.Member, e.Score); err != nil {
			return 0, err
		}
	}
	return b.Close()
}

// setScore sets member's score and reports whether the member is new; the
// caller (Batch) counts it.
func (z ZSet) setScore(member []byte, score float64) (bool, error) {
	if score == 0 {
		score = 0 // -0 is stored as 0
	}
	old, exists, err := z.Score(member)
	if err != nil {
		return false, err
	}
	if exists {
		if old == score {
			return false, nil
		}
		if err := z.DeleteRaw(z.ScoreKeyScratch(old, member)); err != nil {
			return false, err
		}
	}
	if err := z.Put(member, z.ScoreValue(score)); err != nil {
		return false, err
	}
	if !exists {
		z.Signal() // clients blocked in BZPOPMIN and friends are served after the commit
	}
	return !exists, z.SetRaw(z.ScorePrefix(), z.ScoreKeyScratch(score, member), nil)
}

// remove deletes members and reports how many existed, updating the size.
func (z ZSet) RemoveMembers(members [][]byte) (int64, error) {
	var n int64
	for _, m := range members {
		s, ok, err := z.Score(m)
		if err != nil {
			return 0, err
		}
		if !ok {
			continue
		}
		if err := z.Remove(m); err != nil {
			return 0, err
		}
		if err := z.DeleteRaw(z.ScoreKeyScratch(s, m)); err != nil {
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
func (z ZSet) ScanScores(from, to []byte, rev bool, fn func(e Entry) (bool, error)) error {
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
		return fn(Entry{Member: bytes.Clone(m), Score: s})
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
func (z ZSet) ByRank(start, stop int64, rev bool) ([]Entry, error) {
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
	err := z.ScanScores(nil, nil, rev, func(e Entry) (bool, error) {
		if i >= start {
			out = append(out, e)
		}
		i++
		return i <= stop, nil
	})
	return out, err
}

// ScoreBound is one end of a score range.
type ScoreBound struct {
	V    float64
	Excl bool
}

func (b ScoreBound) Below(s float64) bool { return s < b.V || b.Excl && s == b.V } // s is under a min bound
func (b ScoreBound) Above(s float64) bool { return s > b.V || b.Excl && s == b.V } // s is over a max bound

// byScore returns entries with min <= score <= max (bounds as parsed), in
// ascending order or descending with rev, after skipping offset and
// keeping at most count (count < 0: all).
func (z ZSet) ByScore(min, max ScoreBound, rev bool, offset, count int64) ([]Entry, error) {
	var out []Entry
	if z.Coll == nil || count == 0 || offset < 0 {
		return nil, nil
	}
	p := z.ScorePrefix()
	lo := binary.BigEndian.AppendUint64(bytes.Clone(p), codec.EncodeScore(min.V))
	hi := codec.PrefixEnd(binary.BigEndian.AppendUint64(bytes.Clone(p), codec.EncodeScore(max.V)))
	err := z.ScanScores(lo, hi, rev, func(e Entry) (bool, error) {
		if min.Below(e.Score) || max.Above(e.Score) {
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

// LexBound is one end of a lex range: "-", "+", "[x" or "(x".
type LexBound struct {
	V         []byte
	Excl      bool
	Neg, Plus bool
}

// geMin reports whether m is at or over the min bound.
func (b LexBound) GEMin(m []byte) bool {
	switch {
	case b.Neg:
		return true
	case b.Plus:
		return false
	}
	c := bytes.Compare(m, b.V)
	return c > 0 || c == 0 && !b.Excl
}

// leMax reports whether m is at or under the max bound.
func (b LexBound) LEMax(m []byte) bool {
	switch {
	case b.Plus:
		return true
	case b.Neg:
		return false
	}
	c := bytes.Compare(m, b.V)
	return c < 0 || c == 0 && !b.Excl
}

// ByLex returns members within [min, max] after offset, at most count
// (count < 0: all), as Redis's lex commands see them: they assume every
// score is equal. When that holds, the members come in member order
// (descending with rev), read from the member sub-keys. When it does not,
// ByLex does what Redis does on a small sorted set (listpack) instead: it
// walks the members in score order from the first one at or over min (at
// or under max with rev), after checking that the first member is not over
// max and the last not under min, and stops at the first member out of
// range. That walk is O(members before the range).
func (z ZSet) ByLex(min, max LexBound, rev bool, offset, count int64) ([]Entry, error) {
	if z.Coll == nil || count == 0 || offset < 0 {
		return nil, nil
	}
	first, ok, err := z.edge(false)
	if err != nil || !ok {
		return nil, err
	}
	last, _, err := z.edge(true)
	if err != nil {
		return nil, err
	}
	if first.Score != last.Score {
		if !lexRangeValid(min, max) || !max.LEMax(first.Member) || !min.GEMin(last.Member) {
			return nil, nil
		}
		return z.byLexInScoreOrder(min, max, rev, offset, count)
	}
	var from, to []byte
	if !min.Neg && !min.Plus {
		from = min.V
	}
	if !max.Neg && !max.Plus {
		to = append(bytes.Clone(max.V), 0) // just past max, inclusive or not
	}
	var out []Entry
	err = z.Scan(from, to, rev, 0, func(m, v []byte) (bool, error) {
		if !min.GEMin(m) {
			return !rev, nil
		}
		if !max.LEMax(m) {
			return rev, nil
		}
		if offset > 0 {
			offset--
			return true, nil
		}
		out = append(out, Entry{Member: bytes.Clone(m), Score: math.Float64frombits(binary.BigEndian.Uint64(v))})
		return count < 0 || int64(len(out)) < count, nil
	})
	return out, err
}

// lexRangeValid reports whether [min, max] can hold a member at all.
func lexRangeValid(min, max LexBound) bool {
	switch {
	case min.Plus || max.Neg:
		return false
	case min.Neg || max.Plus:
		return true
	}
	c := bytes.Compare(min.V, max.V)
	return c < 0 || c == 0 && !min.Excl && !max.Excl
}

// edge returns the member with the lowest score (highest with rev).
func (z ZSet) edge(rev bool) (Entry, bool, error) {
	var e Entry
	var ok bool
	p := z.ScorePrefix()
	err := z.ScanEdge(p, rev, func(k, _ []byte) (bool, error) {
		s, m, err := codec.DecodeScoreSuffix(k[len(p):])
		e, ok = Entry{Member: bytes.Clone(m), Score: s}, true
		return false, err
	})
	return e, ok, err
}

// byLexInScoreOrder is ByLex over members of different scores.
func (z ZSet) byLexInScoreOrder(min, max LexBound, rev bool, offset, count int64) ([]Entry, error) {
	start, stop := min.GEMin, max.LEMax // forward: start at min, stop past max
	if rev {
		start, stop = max.LEMax, min.GEMin
	}
	var out []Entry
	started := false
	p := z.ScorePrefix()
	err := z.ScanEdge(p, rev, func(k, _ []byte) (bool, error) {
		s, m, err := codec.DecodeScoreSuffix(k[len(p):])
		if err != nil {
			return false, err
		}
		if !started {
			if !start(m) {
				return true, nil
			}
			if !stop(m) {
				return false, nil // the first member past min is over max
			}
			started = true
		}
		if offset > 0 { // Redis skips the offset without range checks
			offset--
			return true, nil
		}
		if !stop(m) {
			return false, nil
		}
		out = append(out, Entry{Member: bytes.Clone(m), Score: s})
		return count < 0 || int64(len(out)) < count, nil
	})
	return out, err
}

// Rank returns the rank of member, whose score is s, counting from the
// lowest score (from the highest with rev): O(rank), a walk of the score
// index up to the member.
func (z ZSet) Rank(member []byte, s float64, rev bool) (int64, error) {
	var rank int64
	target := z.ScoreKey(s, member)
	err := z.ScanEdge(z.ScorePrefix(), rev, func(k, _ []byte) (bool, error) {
		if string(k) == string(target) {
			return false, nil
		}
		rank++
		return true, nil
	})
	return rank, err
}

// DecodeScore decodes a member's stored value (its score); a value that is
// not 8 bytes is codec.ErrCorrupt.
func DecodeScore(v []byte) (float64, error) {
	if len(v) != 8 {
		return 0, codec.ErrCorrupt
	}
	return math.Float64frombits(binary.BigEndian.Uint64(v)), nil
}
