package geo

import "github.com/rekv/rekv/actors/command"

// GEOPOS key [member ...]: [longitude, latitude] of each member, a nil
// array for a missing one.
type geopos struct {
	key     []byte
	members [][]byte
}

func parseGeoPos(args [][]byte) (command.Runner, error) { return geopos{args[1], args[2:]}, nil }

func (g geopos) Run(c *command.Ctx) error {
	return eachScore(c, g.key, g.members, func(score float64) { writePos(c, score) }, c.W.NullArray)
}
