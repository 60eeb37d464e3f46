package rhll

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
)

// SelfTest checks this implementation as PFSELFTEST does in Redis: every
// dense register keeps any 6-bit value written to it without disturbing
// its neighbours, and an HLL fed up to elements distinct elements (in
// 8-byte little-endian form, from a random seed) counts them within five
// standard errors at every power of ten, with its sparse and dense forms
// giving the same count. It returns nil, or what failed in Redis's words
// ("TESTFAILED ...").
func SelfTest(elements int) error { return selfTest(elements, Count) }

// selfTest is SelfTest counting with count (a test breaks it).
func selfTest(elements int, count func([]byte) (uint64, error)) error {
	rng := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	regs := make([]byte, DenseSize-HeaderSize)
	want := make([]uint8, Registers)
	for round := 0; round < 100; round++ {
		for i := range want {
			want[i] = uint8(rng.IntN(regMax + 1))
			// denseSet only raises a register: clear it first.
			bit := i * regBits
			b, fb := bit/8, uint(bit%8)
			regs[b] &^= byte(regMax << fb)
			if b+1 < len(regs) {
				regs[b+1] &^= byte(regMax >> (8 - fb))
			}
			denseSet(regs, i, want[i])
		}
		for i, w := range want {
			if got := denseGet(regs, i); got != w {
				return fmt.Errorf("TESTFAILED Register error at index %d: %d, want %d", i, got, w)
			}
		}
	}

	sparse, dense := New(), New()
	dense, err := ToDense(dense)
	if err != nil {
		return err
	}
	relerr := 1.04 / math.Sqrt(Registers)
	seed := rng.Uint64()
	var elem [8]byte
	next := 10
	for j := 1; j <= elements; j++ {
		binary.LittleEndian.PutUint64(elem[:], uint64(j)^seed)
		if sparse, _, err = Add(sparse, elem[:]); err != nil {
			return err
		}
		if dense, _, err = Add(dense, elem[:]); err != nil {
			return err
		}
		if j != next && j != elements {
			continue
		}
		next *= 10
		s, err := count(sparse)
		if err != nil {
			return err
		}
		d, err := count(dense)
		if err != nil {
			return err
		}
		if s != d {
			return fmt.Errorf("TESTFAILED sparse and dense counts differ at %d elements: %d and %d", j, s, d)
		}
		if abs := math.Abs(float64(d) - float64(j)); abs > math.Max(5*relerr*float64(j), 1) {
			return fmt.Errorf("TESTFAILED Too big error. card:%d abserr:%g maxerr:%g", j, abs, 5*relerr*float64(j))
		}
	}
	return nil
}
