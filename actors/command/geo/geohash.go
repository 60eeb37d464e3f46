package geo

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rgeo"
	"github.com/rekv/rekv/actors/types/rzset"
)

// GEOHASH key [member ...]: the 11-character geohash of each member, nil
// for a missing one.
type geohash struct {
	key     []byte
	members [][]byte
}

func parseGeoHash(args [][]byte) (command.Runner, error) { return geohash{args[1], args[2:]}, nil }

func (g geohash) Run(c *command.Ctx) error {
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
			c.W.Null()
			continue
		}
		c.W.BulkString(rgeo.String(score))
	}
	return nil
}
