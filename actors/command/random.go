package command

import (
	"math"
	"math/rand/v2"

	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/store"
)

// Member is one collection member and its stored value.
type Member struct{ Field, Val []byte }

// RandomMembers picks members of coll as HRANDFIELD, SRANDMEMBER and
// ZRANDMEMBER do: count > 0 gives distinct members (all of them if count
// reaches the size), count < 0 gives |count| members that may repeat. It
// reads the whole collection: O(members).
func RandomMembers(coll *store.Coll, count int64) ([]Member, error) {
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
