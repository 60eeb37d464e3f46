package geo

import (
	"math"
	"strconv"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rgeo"
	"github.com/rekv/rekv/actors/types/rzset"
)

// GEOADD key [NX|XX] [CH] longitude latitude member [...]: ZADD of the
// members' geohash scores.
type geoadd struct {
	key        []byte
	nx, xx, ch bool
	scores     []float64
	members    [][]byte
}

func parseGeoAdd(args [][]byte) (command.Runner, error) {
	g := geoadd{key: args[1]}
	i := 2
	for ; i < len(args); i++ {
		switch {
		case command.Is(args[i], "nx"):
			g.nx = true
		case command.Is(args[i], "xx"):
			g.xx = true
		case command.Is(args[i], "ch"):
			g.ch = true
		default:
			goto coords
		}
	}
coords:
	if (len(args)-i)%3 != 0 || g.nx && g.xx {
		return nil, rerr.ErrSyntax
	}
	for ; i < len(args); i += 3 {
		lon, err := command.Float(args[i])
		if err != nil {
			return nil, err
		}
		lat, err := command.Float(args[i+1])
		if err != nil {
			return nil, err
		}
		if !rgeo.Valid(lon, lat) {
			return nil, rerr.Errorf("ERR invalid longitude,latitude pair %s,%s", cf(lon), cf(lat))
		}
		g.scores = append(g.scores, rgeo.Score(lon, lat))
		g.members = append(g.members, args[i+2])
	}
	return g, nil
}

func (g geoadd) Run(c *command.Ctx) error {
	set, ok, err := rzset.Open(c.Tx, g.key, !g.xx)
	if err != nil {
		return err
	}
	var added, changed int64
	if ok || !g.xx {
		batch := set.Batch(c.EncodingLimits().ZSet)
		for i, m := range g.members {
			old, exists, err := set.Score(m)
			if err != nil {
				return err
			}
			if exists && g.nx || !exists && g.xx {
				continue
			}
			isNew, err := batch.Set(m, g.scores[i])
			if err != nil {
				return err
			}
			switch {
			case isNew:
				added++
			case old != g.scores[i]:
				changed++
			}
		}
		if _, err := batch.Close(); err != nil {
			return err
		}
	}
	n := added
	if g.ch {
		n += changed
	}
	c.W.Int(n)
	return nil
}

// cf formats like C's %f.
func cf(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	return strconv.FormatFloat(f, 'f', 6, 64)
}
