package rgeo

import "math"

// Shape is a search area: a circle of Radius, or a box of Width by
// Height, around (Lon, Lat), in units of Conversion meters.
type Shape struct {
	Lon, Lat      float64
	Box           bool
	Radius        float64
	Width, Height float64
	Conversion    float64
}

// Within reports whether the point (lon, lat) lies in the shape, and its
// distance from the centre in meters.
func (s Shape) Within(lon, lat float64) (float64, bool) {
	if !s.Box {
		d := Distance(s.Lon, s.Lat, lon, lat)
		return d, d <= s.Radius*s.Conversion
	}
	if latDistance(lat, s.Lat) > s.Height*s.Conversion/2 {
		return 0, false
	}
	if Distance(lon, lat, s.Lon, lat) > s.Width*s.Conversion/2 {
		return 0, false
	}
	return Distance(s.Lon, s.Lat, lon, lat), true
}

const mercatorMax = 20037726.37

func deg(r float64) float64 { return r / (math.Pi / 180.0) }

// bounds is the shape's bounding box: min lon, min lat, max lon, max lat.
func (s Shape) bounds() [4]float64 {
	h, w := s.Radius, s.Radius
	if s.Box {
		h, w = s.Height/2, s.Width/2
	}
	h *= s.Conversion
	w *= s.Conversion
	latDelta := deg(h / EarthRadiusM)
	top := deg(w / EarthRadiusM / crCos(rad(s.Lat+latDelta)))
	bottom := deg(w / EarthRadiusM / crCos(rad(s.Lat-latDelta)))
	d := top
	if s.Lat < 0 {
		d = bottom
	}
	return [4]float64{s.Lon - d, s.Lat - latDelta, s.Lon + d, s.Lat + latDelta}
}

func stepsFor(meters, lat float64) uint {
	if meters == 0 {
		return 26
	}
	step := 1
	for meters < mercatorMax {
		meters *= 2
		step++
	}
	step -= 2
	if lat > 66 || lat < -66 {
		step--
		if lat > 80 || lat < -80 {
			step--
		}
	}
	return uint(min(max(step, 1), 26))
}

type cell struct {
	bits uint64
	step uint
}

func (c cell) zero() bool { return c.bits == 0 && c.step == 0 }

func (c cell) move(dx, dy int) cell {
	const even, odd = 0x5555555555555555, 0xaaaaaaaaaaaaaaaa
	shift := 64 - c.step*2
	if dx != 0 {
		x, y := c.bits&odd, c.bits&even
		zz := uint64(even) >> shift
		if dx > 0 {
			x += zz + 1
		} else {
			x = (x | zz) - (zz + 1)
		}
		c.bits = x&(uint64(odd)>>shift) | y
	}
	if dy != 0 {
		x, y := c.bits&odd, c.bits&even
		zz := uint64(odd) >> shift
		if dy > 0 {
			y += zz + 1
		} else {
			y = (y | zz) - (zz + 1)
		}
		c.bits = x | y&(uint64(even)>>shift)
	}
	return c
}

// Ranges returns the score ranges [min, max) to scan for the shape, in
// Redis's order (the centre cell, then N, S, E, W, NE, NW, SE, SW), with
// the cells Redis leaves out (useless ones, and a repeat of the range
// scanned just before) left out.
func (s Shape) Ranges() [][2]float64 {
	b := s.bounds()
	meters := s.Radius
	if s.Box {
		meters = math.Sqrt(s.Width/2*(s.Width/2) + s.Height/2*(s.Height/2))
	}
	meters *= s.Conversion
	steps := stepsFor(meters, s.Lat)
	around := func(steps uint) (cell, [8]cell, Area) {
		c := cell{Encode(LonRange, LatRange, s.Lon, s.Lat, steps), steps}
		n := [8]cell{c.move(0, 1), c.move(0, -1), c.move(1, 0), c.move(-1, 0),
			c.move(1, 1), c.move(-1, 1), c.move(1, -1), c.move(-1, -1)}
		return c, n, Decode(LonRange, LatRange, c.bits, steps)
	}
	c, n, area := around(steps)
	north := Decode(LonRange, LatRange, n[0].bits, steps)
	south := Decode(LonRange, LatRange, n[1].bits, steps)
	east := Decode(LonRange, LatRange, n[2].bits, steps)
	west := Decode(LonRange, LatRange, n[3].bits, steps)
	if steps > 1 && (north.Lat.Max < b[3] || south.Lat.Min > b[1] || east.Lon.Max < b[2] || west.Lon.Min > b[0]) {
		steps--
		c, n, area = around(steps)
	}
	if steps >= 2 {
		// n: 0 N, 1 S, 2 E, 3 W, 4 NE, 5 NW, 6 SE, 7 SW
		if area.Lat.Min < b[1] {
			n[1], n[7], n[6] = cell{}, cell{}, cell{}
		}
		if area.Lat.Max > b[3] {
			n[0], n[4], n[5] = cell{}, cell{}, cell{}
		}
		if area.Lon.Min < b[0] {
			n[3], n[7], n[5] = cell{}, cell{}, cell{}
		}
		if area.Lon.Max > b[2] {
			n[2], n[6], n[4] = cell{}, cell{}, cell{}
		}
	}
	cells := append([]cell{c}, n[:]...)
	var out [][2]float64
	last := 0
	for i, x := range cells {
		if x.zero() {
			continue
		}
		if last != 0 && x == cells[last] {
			continue
		}
		shift := 52 - x.step*2
		out = append(out, [2]float64{float64(x.bits << shift), float64((x.bits + 1) << shift)})
		last = i
	}
	return out
}
