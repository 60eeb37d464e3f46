package geo

import (
	"slices"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rgeo"
	"github.com/rekv/rekv/actors/types/rzset"
)

// GEORADIUS key lon lat radius unit [options], GEORADIUSBYMEMBER key
// member radius unit [options] (and their _RO forms), GEOSEARCH key
// FROMMEMBER m | FROMLONLAT lon lat BYRADIUS r unit | BYBOX w h unit
// [options], GEOSEARCHSTORE dst src ... [STOREDIST]. Options: WITHCOORD,
// WITHDIST, WITHHASH, COUNT n [ANY], ASC|DESC, STORE / STOREDIST key
// (GEORADIUS*). The candidates come from the nine geohash cells around
// the centre, scanned in Redis's order, so unsorted results come in
// Redis's order too.
type search struct {
	name    string
	src     []byte
	kind    int // byCoords, byMember or generic (GEOSEARCH*)
	args    [][]byte
	noStore bool
	dst     []byte // GEOSEARCHSTORE's destination
}

const (
	byCoords = iota
	byMember
	generic
)

// georadiusKeys locates GEORADIUS*'s keys: the source, and a STORE or
// STOREDIST destination.
func georadiusKeys(args [][]byte) []int {
	keys := []int{1}
	for i := 2; i+1 < len(args); i++ {
		if command.Is(args[i], "store") || command.Is(args[i], "storedist") {
			keys = append(keys, i+1)
			i++
		}
	}
	return keys
}

func searchParser(name string, kind int, noStore, store bool) func([][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) {
		s := search{name: name, kind: kind, noStore: noStore, args: args, src: args[1]}
		if store {
			s.dst, s.src = args[1], args[2]
		}
		return s, nil
	}
}

type point struct {
	member   []byte
	score    float64
	dist     float64
	lon, lat float64
}

// Run parses the options once the source is read, as Redis: a missing
// member or a bad option of a search on a missing key reads differently.
func (s search) Run(c *command.Ctx) error {
	set, exists, err := rzset.Open(c.Tx, s.src, false)
	if err != nil {
		return err
	}
	var shape rgeo.Shape
	base := 2
	args := s.args
	switch {
	case s.kind == byCoords:
		base = 6
		if shape.Lon, shape.Lat, err = lonLat(args[2], args[3]); err != nil {
			return err
		}
		if shape.Radius, shape.Conversion, err = radius(args[4], args[5]); err != nil {
			return err
		}
	case s.kind == byMember && !exists:
		base = 5
	case s.kind == byMember:
		base = 5
		if shape.Lon, shape.Lat, err = memberPos(set, args[2]); err != nil {
			return err
		}
		if shape.Radius, shape.Conversion, err = radius(args[3], args[4]); err != nil {
			return err
		}
	case s.dst != nil:
		base = 3
	}
	var withDist, withHash, withCoord, any, storeDist bool
	var fromMember, fromLoc, byRadius, byBox bool
	sort := 0 // 1 asc, -1 desc
	var count int64
	store := s.dst
	rest := args[base:]
	for i := 0; i < len(rest); i++ {
		left := len(rest) - i - 1
		a := rest[i]
		switch {
		case command.Is(a, "withdist"):
			withDist = true
		case command.Is(a, "withhash"):
			withHash = true
		case command.Is(a, "withcoord"):
			withCoord = true
		case command.Is(a, "any"):
			any = true
		case command.Is(a, "asc"):
			sort = 1
		case command.Is(a, "desc"):
			sort = -1
		case command.Is(a, "count") && left >= 1:
			if count, err = command.Int(rest[i+1]); err != nil {
				return err
			}
			if count <= 0 {
				return rerr.Errorf("ERR COUNT must be > 0")
			}
			i++
		case (command.Is(a, "store") || command.Is(a, "storedist")) && left >= 1 && !s.noStore && s.kind != generic:
			store, storeDist = rest[i+1], command.Is(a, "storedist")
			i++
		case command.Is(a, "storedist") && s.kind == generic && s.dst != nil:
			storeDist = true
		case command.Is(a, "frommember") && left >= 1 && s.kind == generic && !fromLoc:
			if exists {
				if shape.Lon, shape.Lat, err = memberPos(set, rest[i+1]); err != nil {
					return err
				}
			}
			fromMember = true
			i++
		case command.Is(a, "fromlonlat") && left >= 2 && s.kind == generic && !fromMember:
			if shape.Lon, shape.Lat, err = lonLat(rest[i+1], rest[i+2]); err != nil {
				return err
			}
			fromLoc = true
			i += 2
		case command.Is(a, "byradius") && left >= 2 && s.kind == generic && !byBox:
			if shape.Radius, shape.Conversion, err = radius(rest[i+1], rest[i+2]); err != nil {
				return err
			}
			shape.Box, byRadius = false, true
			i += 2
		case command.Is(a, "bybox") && left >= 3 && s.kind == generic && !byRadius:
			if shape.Width, shape.Height, shape.Conversion, err = box(rest[i+1], rest[i+2], rest[i+3]); err != nil {
				return err
			}
			shape.Box, byBox = true, true
			i += 3
		default:
			return rerr.ErrSyntax
		}
	}
	if store != nil && (withDist || withHash || withCoord) {
		what := "STORE option in GEORADIUS"
		if s.dst != nil {
			what = "GEOSEARCHSTORE"
		}
		return rerr.Errorf("ERR %s is not compatible with WITHDIST, WITHHASH and WITHCOORD options", what)
	}
	if s.kind == generic && !fromMember && !fromLoc {
		return rerr.Errorf("ERR exactly one of FROMMEMBER or FROMLONLAT can be specified for %s", args[0])
	}
	if s.kind == generic && !byRadius && !byBox {
		return rerr.Errorf("ERR exactly one of BYRADIUS and BYBOX can be specified for %s", args[0])
	}
	if any && count == 0 {
		return rerr.Errorf("ERR the ANY argument requires COUNT argument")
	}
	if !exists {
		if store != nil {
			if _, err := c.Tx.Delete(store); err != nil {
				return err
			}
			c.W.Int(0)
			return nil
		}
		c.W.Array(0)
		return nil
	}
	if count != 0 && sort == 0 && !any {
		sort = 1
	}
	limit := int64(0)
	if any {
		limit = count
	}
	var found []point
	for _, r := range shape.Ranges() {
		if limit > 0 && int64(len(found)) >= limit {
			break
		}
		es, err := set.ByScore(rzset.ScoreBound{V: r[0]}, rzset.ScoreBound{V: r[1], Excl: true}, false, 0, -1)
		if err != nil {
			return err
		}
		for _, e := range es {
			lon, lat := rgeo.Position(e.Score)
			d, ok := shape.Within(lon, lat)
			if !ok {
				continue
			}
			found = append(found, point{e.Member, e.Score, d, lon, lat})
			if limit > 0 && int64(len(found)) >= limit {
				break
			}
		}
	}
	if sort != 0 {
		slices.SortStableFunc(found, func(a, b point) int {
			switch {
			case a.dist < b.dist:
				return -sort
			case a.dist > b.dist:
				return sort
			}
			return 0
		})
	}
	if count > 0 && int64(len(found)) > count {
		found = found[:count]
	}
	for i := range found {
		found[i].dist /= shape.Conversion
	}
	if store != nil {
		return storeFound(c, store, found, storeDist)
	}
	extra := btoi(withDist) + btoi(withHash) + btoi(withCoord)
	c.W.Array(len(found))
	for _, p := range found {
		if extra > 0 {
			c.W.Array(extra + 1)
		}
		c.W.Bulk(p.member)
		if withDist {
			c.W.BulkString(distance(p.dist))
		}
		if withHash {
			c.W.Int(int64(p.score))
		}
		if withCoord {
			c.W.Array(2)
			c.W.DoubleText(human(p.lon))
			c.W.DoubleText(human(p.lat))
		}
	}
	return nil
}

// storeFound replaces dst with a sorted set of the points (scored by
// geohash, or by distance with STOREDIST), or deletes it when there are
// none.
func storeFound(c *command.Ctx, dst []byte, found []point, byDist bool) error {
	if _, err := c.Tx.Delete(dst); err != nil {
		return err
	}
	if len(found) > 0 {
		set, _, err := rzset.Open(c.Tx, dst, true)
		if err != nil {
			return err
		}
		batch := set.Batch(c.EncodingLimits().ZSet)
		for _, p := range found {
			score := p.score
			if byDist {
				score = p.dist
			}
			if _, err := batch.Set(p.member, score); err != nil {
				return err
			}
		}
		if _, err := batch.Close(); err != nil {
			return err
		}
	}
	c.W.Int(int64(len(found)))
	return nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// lonLat parses and checks a longitude, latitude pair.
func lonLat(lonArg, latArg []byte) (float64, float64, error) {
	lon, err := command.Float(lonArg)
	if err != nil {
		return 0, 0, err
	}
	lat, err := command.Float(latArg)
	if err != nil {
		return 0, 0, err
	}
	if !rgeo.Valid(lon, lat) {
		return 0, 0, rerr.Errorf("ERR invalid longitude,latitude pair %s,%s", cf(lon), cf(lat))
	}
	return lon, lat, nil
}

var errMember = &rerr.Error{Msg: "ERR could not decode requested zset member"}

// memberPos returns a member's decoded position.
func memberPos(set rzset.ZSet, m []byte) (float64, float64, error) {
	score, ok, err := set.Score(m)
	if err != nil {
		return 0, 0, err
	}
	if !ok {
		return 0, 0, errMember
	}
	lon, lat := rgeo.Position(score)
	return lon, lat, nil
}

func numeric(arg []byte, msg string) (float64, error) {
	f, err := command.Float(arg)
	if err != nil {
		return 0, rerr.Errorf("ERR %s", msg)
	}
	return f, nil
}

// radius parses a radius and its unit.
func radius(r, u []byte) (float64, float64, error) {
	d, err := numeric(r, "need numeric radius")
	if err != nil {
		return 0, 0, err
	}
	if d < 0 {
		return 0, 0, rerr.Errorf("ERR radius cannot be negative")
	}
	conv, err := unit(u)
	return d, conv, err
}

// box parses a width, height and unit.
func box(w, h, u []byte) (float64, float64, float64, error) {
	width, err := numeric(w, "need numeric width")
	if err != nil {
		return 0, 0, 0, err
	}
	height, err := numeric(h, "need numeric height")
	if err != nil {
		return 0, 0, 0, err
	}
	if width < 0 || height < 0 {
		return 0, 0, 0, rerr.Errorf("ERR height or width cannot be negative")
	}
	conv, err := unit(u)
	return width, height, conv, err
}
