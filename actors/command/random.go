package command

import (
	"bytes"
	"math"
	"math/rand/v2"

	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/store"
)

// Member is one collection member and its stored value.
type Member struct{ Field, Val []byte }

// RandomMembers picks members of coll as HRANDFIELD, SPOP, SRANDMEMBER and
// ZRANDMEMBER do: count > 0 gives distinct members (all of them, shuffled,
// if count reaches the size), count < 0 gives |count| members that may
// repeat.
//
// A collection of up to exactUpTo members is read whole and sampled
// exactly. In a bigger one a pick descends the members' byte trie (see
// descend): O(depth * log n), uniform when member keys fill their alphabet
// evenly. When the reply is itself a large share of the collection, the
// whole collection is read instead.
func RandomMembers(coll *store.Coll, count int64) ([]Member, error) {
	size := coll.Size()
	if size == 0 || count == 0 {
		return nil, nil
	}
	if size <= exactUpTo || coll.Hiding() || count > 0 && count*2 >= size || count < 0 && -count >= size {
		return sampleAll(coll, count)
	}
	first, err := edgeMember(coll, false)
	if err != nil {
		return nil, err
	}
	last, err := edgeMember(coll, true)
	if err != nil {
		return nil, err
	}
	pick := func() (Member, error) { return descend(coll, first, last) }
	var out []Member
	if count < 0 {
		for i := int64(0); i < -count; i++ {
			m, err := pick()
			if err != nil {
				return nil, err
			}
			out = append(out, m)
		}
		return out, nil
	}
	seen := map[string]bool{}
	for tries := int64(0); int64(len(out)) < count && tries < 8*count; tries++ {
		m, err := pick()
		if err != nil {
			return nil, err
		}
		if !seen[string(m.Field)] {
			seen[string(m.Field)] = true
			out = append(out, m)
		}
	}
	if int64(len(out)) < count {
		// Unlucky draws: fill up walking from the start.
		err := coll.Scan(nil, nil, false, 0, func(f, v []byte) (bool, error) {
			if !seen[string(f)] {
				seen[string(f)] = true
				out = append(out, Member{Copy(f), Copy(v)})
			}
			return int64(len(out)) < count, nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// exactUpTo is the size up to which random picks read the whole
// collection: uniform whatever the members look like, for about the cost
// of a few descents.
const exactUpTo = 1024

// edgeMember returns the first (or last) member, past known tombstones.
func edgeMember(coll *store.Coll, last bool) (Member, error) {
	var m Member
	p := coll.Prefix()
	err := coll.ScanEdge(p, last, func(k, v []byte) (bool, error) {
		m = Member{Copy(k[len(p):]), Copy(v)}
		return false, nil
	})
	return m, err
}

// descend picks a member by walking down the byte trie of the members:
// at each depth it draws a byte uniformly between the smallest and the
// largest member's byte there, draws again when no member has that byte
// (alphabets with holes, like hex), and narrows to the members under the
// chosen prefix with one forward and one reverse seek. Members are drawn
// uniformly when their keys fill their alphabet evenly; otherwise members
// in sparse subtrees are favoured. O(depth * log n).
func descend(coll *store.Coll, lo, hi Member) (Member, error) {
	for depth := 0; depth < 256; depth++ {
		if bytes.Equal(lo.Field, hi.Field) {
			return lo, nil
		}
		n := commonPrefix(lo.Field, hi.Field)
		prefix := lo.Field[:n]
		// lo may be the prefix itself (a shorter member): byte "-1".
		minB := -1
		if len(lo.Field) > n {
			minB = int(lo.Field[n])
		}
		maxB := int(hi.Field[n])
		var found bool
		for try := 0; try < 16 && !found; try++ {
			b := minB + rand.IntN(maxB-minB+1)
			if b < 0 {
				return lo, nil
			}
			sub := append(bytes.Clone(prefix), byte(b))
			nlo, ok, err := seekMember(coll, sub, false)
			if err != nil {
				return Member{}, err
			}
			if !ok || !bytes.HasPrefix(nlo.Field, sub) {
				continue // no member under this byte: draw again
			}
			nhi, _, err := seekMember(coll, sub, true)
			if err != nil {
				return Member{}, err
			}
			lo, hi, found = nlo, nhi, true
		}
		if !found {
			return lo, nil
		}
	}
	return lo, nil
}

func commonPrefix(a, b []byte) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// seekMember returns the first member at or after p (forward), or the last
// member under prefix p (reverse).
func seekMember(coll *store.Coll, p []byte, reverse bool) (Member, bool, error) {
	var m Member
	var ok bool
	visit := func(f, v []byte) (bool, error) {
		m, ok = Member{Copy(f), Copy(v)}, true
		return false, nil
	}
	var err error
	if reverse {
		err = coll.Scan(p, prefixEnd(p), true, 1, visit)
	} else {
		err = coll.Scan(p, nil, false, 1, visit)
	}
	return m, ok, err
}

// prefixEnd is the smallest field greater than every field starting with p.
func prefixEnd(p []byte) []byte {
	end := bytes.Clone(p)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] != 0xff {
			end[i]++
			return end[:i+1]
		}
	}
	return nil
}

// sampleAll reads every member and samples from them.
func sampleAll(coll *store.Coll, count int64) ([]Member, error) {
	var all []Member
	err := coll.Scan(nil, nil, false, 0, func(f, v []byte) (bool, error) {
		all = append(all, Member{Copy(f), Copy(v)})
		return true, nil
	})
	if err != nil || len(all) == 0 {
		return nil, err
	}
	if count < 0 {
		out := make([]Member, 0, min(-count, 1<<20))
		for i := int64(0); i < -count; i++ {
			out = append(out, all[rand.IntN(len(all))])
		}
		return out, nil
	}
	rand.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	return all[:min(count, int64(len(all)))], nil
}

// RandomCount parses the count of HRANDFIELD/SRANDMEMBER/ZRANDMEMBER with
// Redis's range: -LONG_MAX..LONG_MAX.
func RandomCount(arg []byte) (int64, error) {
	n, err := Int(arg)
	if err != nil {
		return 0, err
	}
	if n == math.MinInt64 {
		return 0, rerr.Errorf("ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807")
	}
	return n, nil
}
