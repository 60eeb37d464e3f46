package geo

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rzset"
)

// GEOPOS key [member ...]: [longitude, latitude] of each member, a nil
// array for a missing one.
type geopos struct {
	key     []byte
	members [][]byte
}

func parseGeoPos(args [][]byte) (command.Runner, error) { return geopos{args[1], args[2:]}, nil }

func (g geopos) Run(c *command.Ctx) error {
	set, _, err := rzset.Open(c.Tx, g.key, false)
	if err != nil {
		return err
	}
	c.W.Array(len(g.members))
	for _, m := range g.members {
		score, ok, err := set.Score(m)
		if err != nil {
			return err
		}
		if !ok {
			c.W.NullArray()
			continue
		}
		writePos(c, score)
	}
	return nil
}
