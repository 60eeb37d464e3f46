package geo

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rgeo"
)

// GEOHASH key [member ...]: the 11-character geohash of each member, nil
// for a missing one.
type geohash struct {
	key     []byte
	members [][]byte
}

func parseGeoHash(args [][]byte) (command.Runner, error) { return geohash{args[1], args[2:]}, nil }

func (g geohash) Run(c *command.Ctx) error {
	return eachScore(c, g.key, g.members, func(score float64) { c.W.BulkString(rgeo.String(score)) }, c.W.Null)
}
