package geo

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rgeo"
	"github.com/rekv/rekv/actors/types/rzset"
)

// GEODIST key member1 member2 [M|KM|FT|MI]: the distance between two
// members' decoded positions, four decimals; nil if one is missing.
type geodist struct {
	key    []byte
	m1, m2 []byte
	unit   float64
}

func parseGeoDist(args [][]byte) (command.Runner, error) {
	g := geodist{key: args[1], m1: args[2], m2: args[3], unit: 1}
	switch len(args) {
	case 4:
	case 5:
		u, err := unit(args[4])
		if err != nil {
			return nil, err
		}
		g.unit = u
	default:
		return nil, rerr.ErrSyntax
	}
	return g, nil
}

func (g geodist) Run(c *command.Ctx) error {
	set, _, err := rzset.Open(c.Tx, g.key, false)
	if err != nil {
		return err
	}
	s1, ok1, err := set.Score(g.m1)
	if err != nil {
		return err
	}
	s2, ok2, err := set.Score(g.m2)
	if err != nil {
		return err
	}
	if !ok1 || !ok2 {
		c.W.Null()
		return nil
	}
	lon1, lat1 := rgeo.Position(s1)
	lon2, lat2 := rgeo.Position(s2)
	c.W.BulkString(distance(rgeo.Distance(lon1, lat1, lon2, lat2) / g.unit))
	return nil
}
