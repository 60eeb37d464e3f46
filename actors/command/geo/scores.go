package geo

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rzset"
)

// eachScore replies an array with one element per member of key's sorted
// set (GEOHASH, GEOPOS): found writes a member's element from its score,
// missing the element of a member (or key) that is not there.
func eachScore(c *command.Ctx, key []byte, members [][]byte, found func(score float64), missing func()) error {
	set, _, err := rzset.Open(c.Tx, key, false)
	if err != nil {
		return err
	}
	c.W.Array(len(members))
	for _, m := range members {
		score, ok, err := set.Score(m)
		if err != nil {
			return err
		}
		if ok {
			found(score)
		} else {
			missing()
		}
	}
	return nil
}
