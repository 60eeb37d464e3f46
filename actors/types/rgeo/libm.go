package rgeo

import "math"

// Correctly rounded sin, cos and asin, so distances come out as Redis's
// do to the last bit. Redis calls the C library's, whose results (glibc)
// are the exact value rounded to the nearest double in all but the
// rarest cases; Go's math.Sin, Cos and Asin are within a unit in the last
// place and differ from them for about a third of the arguments
// (GEODIST, WITHDIST and STOREDIST then showed 190.44242984775781 where
// Redis has 190.44242984775784).
//
// Each is evaluated in double-double arithmetic (about 106 bits: a value
// is hi + lo, two doubles), then rounded once. Arguments of sin and cos
// are reduced by multiples of π/2 held in three doubles; geographic
// arguments are within a few radians, so the reduction loses nothing.
// asin refines Go's result with a Newton step on sin.

// dd is a double-double: the unevaluated sum hi + lo, |lo| <= ulp(hi)/2.
type dd struct{ hi, lo float64 }

func twoSum(a, b float64) dd {
	s := a + b
	bb := s - a
	return dd{s, (a - (s - bb)) + (b - bb)}
}

func quickTwoSum(a, b float64) dd {
	s := a + b
	return dd{s, b - (s - a)}
}

func (a dd) add(b dd) dd {
	s := twoSum(a.hi, b.hi)
	t := twoSum(a.lo, b.lo)
	s.lo += t.hi
	s = quickTwoSum(s.hi, s.lo)
	s.lo += t.lo
	return quickTwoSum(s.hi, s.lo)
}

func (a dd) neg() dd { return dd{-a.hi, -a.lo} }

func (a dd) mul(b dd) dd {
	p := a.hi * b.hi
	e := math.FMA(a.hi, b.hi, -p)
	e += a.hi*b.lo + a.lo*b.hi
	return quickTwoSum(p, e)
}

func (a dd) mulF(b float64) dd {
	p := a.hi * b
	e := math.FMA(a.hi, b, -p)
	e += a.lo * b
	return quickTwoSum(p, e)
}

func (a dd) div(b dd) dd {
	q1 := a.hi / b.hi
	r := a.add(b.mulF(q1).neg())
	q2 := r.hi / b.hi
	r = r.add(b.mulF(q2).neg())
	q3 := r.hi / b.hi
	return quickTwoSum(q1, q2).add(dd{q3, 0})
}

// value rounds a to the nearest double.
func (a dd) value() float64 { return a.hi + a.lo }

// π/2 in three doubles (their sum is π/2 to about 160 bits).
const (
	pio2a = 1.5707963267948966192313216916397514420985846996875529
	pio2b = 6.123233995736766035868820147291818e-17
	pio2c = -1.4973849048591698329435e-33
)

// invFact[n] is 1/n! as a double-double, n < len.
var invFact = func() [32]dd {
	var t [32]dd
	t[0] = dd{1, 0}
	for n := 1; n < len(t); n++ {
		t[n] = t[n-1].div(dd{float64(n), 0})
	}
	return t
}()

// series evaluates Σ_j (-1)^j r2^j / (2j+first)! for |r2| <= (π/4)²: the
// terms from j = 4 on (below 2^-18 of the first) in doubles, the first
// four in double-doubles, which keeps the result within about 2^-70 of
// the exact value — past what rounding it to a double needs in all but
// the rarest cases. first is 1 for sin(r)/r, 0 for cos(r).
func series(r2 dd, first int) dd {
	x := r2.hi
	tail := 0.0
	for n := 27 + first - 1; n >= 8+first; n -= 2 {
		tail = invFact[n].hi - x*tail
	}
	acc := dd{tail, 0}
	for n := 6 + first; n >= first; n -= 2 {
		acc = acc.mul(r2).neg().add(invFact[n])
	}
	return acc
}

// reduce returns x - k·π/2 and k mod 4, for |x| up to a few thousand.
func reduce(x float64) (dd, int) {
	k := math.Round(x / pio2a)
	// x - k·pio2a is exact for the small k of geographic arguments
	// (FMA keeps the product's low part); the other two parts follow.
	r := twoSum(x, -k*pio2a)
	r.lo += math.FMA(-k, pio2a, k*pio2a)
	r = quickTwoSum(r.hi, r.lo)
	r = r.add(dd{-k * pio2b, math.FMA(-k, pio2b, k*pio2b)})
	r = r.add(dd{-k * pio2c, 0})
	return r, int(int64(k) & 3)
}

// sinDD returns sin(x) (cos with cosine set) as a double-double.
func sinDD(x float64, cosine bool) dd {
	r, q := reduce(x)
	if cosine {
		q++ // cos x = sin(x + π/2)
	}
	r2 := r.mul(r)
	var v dd
	if q&1 == 0 {
		v = series(r2, 1).mul(r) // sin r
	} else {
		v = series(r2, 0) // cos r
	}
	if q&2 != 0 {
		v = v.neg()
	}
	return v
}

// crSin is sin(x) correctly rounded (NaN, infinities and arguments past
// 2^20 go to math.Sin: geographic arguments are a few radians).
func crSin(x float64) float64 {
	if x == 0 || math.IsNaN(x) || math.Abs(x) > 1<<20 {
		return math.Sin(x)
	}
	return sinDD(x, false).value()
}

// crCos is cos(x) correctly rounded.
func crCos(x float64) float64 {
	if math.IsNaN(x) || math.Abs(x) > 1<<20 {
		return math.Cos(x)
	}
	return sinDD(x, true).value()
}

// crAsin is asin(y) correctly rounded: Go's result, within a unit in the
// last place, corrected by one Newton step on sin (the correction is
// tiny, so its own few-ulp error does not matter).
func crAsin(y float64) float64 {
	if y == 0 || math.IsNaN(y) || math.Abs(y) >= 1 {
		return math.Asin(y)
	}
	t := math.Asin(y)
	d := dd{y, 0}.add(sinDD(t, false).neg()).value() / math.Cos(t)
	return twoSum(t, d).value()
}
