package geo

import (
	"strconv"
	"strings"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rgeo"
)

var errUnit = &rerr.Error{Msg: "ERR unsupported unit provided. please use M, KM, FT, MI"}

// human formats a coordinate as Redis's human long double: 17 decimals,
// trailing zeros (and a trailing point) removed.
func human(f float64) string {
	s := strconv.FormatFloat(f, 'f', 17, 64)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// distance formats a distance with four decimals.
func distance(d float64) string { return strconv.FormatFloat(d, 'f', 4, 64) }

// unit parses m, km, ft or mi (any case) into meters.
func unit(arg []byte) (float64, error) {
	m, ok := rgeo.Unit(strings.ToLower(string(arg)))
	if !ok {
		return 0, errUnit
	}
	return m, nil
}

// writePos writes [longitude, latitude].
func writePos(c *command.Ctx, score float64) {
	lon, lat := rgeo.Position(score)
	c.W.Array(2)
	c.W.DoubleText(human(lon))
	c.W.DoubleText(human(lat))
}
