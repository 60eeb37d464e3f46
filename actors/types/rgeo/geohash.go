package rgeo

import "math"

// Coordinate limits (EPSG:3785 latitudes) and the earth radius Redis uses.
const (
	LonMin       = -180.0
	LonMax       = 180.0
	LatMin       = -85.05112878
	LatMax       = 85.05112878
	Step         = 26
	EarthRadiusM = 6372797.560856
)

// Valid reports whether lon, lat can be stored.
func Valid(lon, lat float64) bool {
	return lon >= LonMin && lon <= LonMax && lat >= LatMin && lat <= LatMax
}

// spread puts the low 32 bits of x at the even bit positions.
func spread(x uint64) uint64 {
	x &= 0xffffffff
	x = (x | x<<16) & 0x0000ffff0000ffff
	x = (x | x<<8) & 0x00ff00ff00ff00ff
	x = (x | x<<4) & 0x0f0f0f0f0f0f0f0f
	x = (x | x<<2) & 0x3333333333333333
	x = (x | x<<1) & 0x5555555555555555
	return x
}

// squash gathers the even bits of x into the low 32 bits.
func squash(x uint64) uint64 {
	x &= 0x5555555555555555
	x = (x | x>>1) & 0x3333333333333333
	x = (x | x>>2) & 0x0f0f0f0f0f0f0f0f
	x = (x | x>>4) & 0x00ff00ff00ff00ff
	x = (x | x>>8) & 0x0000ffff0000ffff
	x = (x | x>>16) & 0x00000000ffffffff
	return x
}

// Range is a closed interval of degrees.
type Range struct{ Min, Max float64 }

// Web-Mercator ranges of the stored scores, and the standard ranges of
// geohash strings.
var (
	LonRange    = Range{LonMin, LonMax}
	LatRange    = Range{LatMin, LatMax}
	StdLatRange = Range{-90, 90}
)

// Encode interleaves lon, lat into a hash of step bits each.
func Encode(lonR, latR Range, lon, lat float64, step uint) uint64 {
	latOff := (lat - latR.Min) / (latR.Max - latR.Min)
	lonOff := (lon - lonR.Min) / (lonR.Max - lonR.Min)
	latOff *= float64(uint64(1) << step)
	lonOff *= float64(uint64(1) << step)
	return spread(uint64(uint32(latOff))) | spread(uint64(uint32(lonOff)))<<1
}

// Area is the cell of a hash.
type Area struct{ Lon, Lat Range }

// Decode returns the cell of hash (step bits each).
func Decode(lonR, latR Range, hash uint64, step uint) Area {
	ilat := squash(hash)
	ilon := squash(hash >> 1)
	div := float64(uint64(1) << step)
	latScale, lonScale := latR.Max-latR.Min, lonR.Max-lonR.Min
	return Area{
		Lat: Range{latR.Min + float64(ilat)/div*latScale, latR.Min + float64(ilat+1)/div*latScale},
		Lon: Range{lonR.Min + float64(ilon)/div*lonScale, lonR.Min + float64(ilon+1)/div*lonScale},
	}
}

// Score is the sorted-set score of lon, lat.
func Score(lon, lat float64) float64 {
	return float64(Encode(LonRange, LatRange, lon, lat, Step))
}

// Position decodes a score to the centre of its cell.
func Position(score float64) (lon, lat float64) {
	a := Decode(LonRange, LatRange, uint64(score), Step)
	lon = min(max((a.Lon.Min+a.Lon.Max)/2, LonMin), LonMax)
	lat = min(max((a.Lat.Min+a.Lat.Max)/2, LatMin), LatMax)
	return lon, lat
}

const alphabet = "0123456789bcdefghjkmnpqrstuvwxyz"

// String returns the 11-character geohash of a score, as GEOHASH: the
// decoded position encoded again over the standard [-90, 90] latitudes;
// the 11th character stands for bits a 52-bit hash does not have.
func String(score float64) string {
	lon, lat := Position(score)
	h := Encode(LonRange, StdLatRange, lon, lat, Step)
	var b [11]byte
	for i := 0; i < 11; i++ {
		idx := uint64(0)
		if i < 10 {
			idx = h >> (52 - uint((i+1)*5)) & 0x1f
		}
		b[i] = alphabet[idx]
	}
	return string(b[:])
}

func rad(deg float64) float64 { return deg * (math.Pi / 180.0) }

// Distance is the haversine distance in meters; on one meridian it is
// the latitude distance, as Redis 7.0 computes it.
func Distance(lon1, lat1, lon2, lat2 float64) float64 {
	v := crSin((rad(lon2) - rad(lon1)) / 2)
	if v == 0 {
		return latDistance(lat1, lat2)
	}
	lat1r, lat2r := rad(lat1), rad(lat2)
	u := crSin((lat2r - lat1r) / 2)
	// Each product rounded on its own, as C computes it (no fused
	// multiply-add on the platforms Redis is built for).
	a := float64(u*u) + float64(float64(float64(crCos(lat1r)*crCos(lat2r))*v)*v)
	return 2.0 * EarthRadiusM * crAsin(math.Sqrt(a))
}

func latDistance(lat1, lat2 float64) float64 {
	return EarthRadiusM * math.Abs(rad(lat2)-rad(lat1))
}

// Unit returns the meters in a distance unit: m, km, ft, mi.
func Unit(name string) (float64, bool) {
	switch name {
	case "m":
		return 1, true
	case "km":
		return 1000, true
	case "ft":
		return 0.3048, true
	case "mi":
		return 1609.34, true
	}
	return 0, false
}
