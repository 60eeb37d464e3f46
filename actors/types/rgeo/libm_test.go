package rgeo

import (
	"bufio"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestCorrectlyRounded checks crSin, crCos and crAsin against values
// computed at 300 bits and rounded once (testdata/libm.txt); Go's own
// math.Sin, Cos and Asin miss about a third of them by a unit in the
// last place, which the test also counts, so it shows the table can tell.
func TestCorrectlyRounded(t *testing.T) {
	f, err := os.Open("testdata/libm.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fns := map[string][2]func(float64) float64{
		"sin":  {crSin, math.Sin},
		"cos":  {crCos, math.Cos},
		"asin": {crAsin, math.Asin},
	}
	sc := bufio.NewScanner(f)
	cases, goMisses := 0, 0
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		p := strings.Fields(line)
		x, err1 := strconv.ParseFloat(p[1], 64)
		want, err2 := strconv.ParseFloat(p[2], 64)
		fn, ok := fns[p[0]]
		if err1 != nil || err2 != nil || !ok {
			t.Fatalf("bad line %q", line)
		}
		cases++
		if got := fn[0](x); got != want {
			t.Errorf("%s(%v) = %v, want %v", p[0], x, got, want)
		}
		if fn[1](x) != want {
			goMisses++
		}
	}
	if cases < 400 || goMisses == 0 {
		t.Fatalf("%d cases, Go's math missed %d: the table does not test rounding", cases, goMisses)
	}
	t.Logf("%d cases; Go's math missed %d", cases, goMisses)
}

// TestDistanceAsRedis pins a distance Redis 7.0 stores (GEORADIUS
// STOREDIST, Palermo from 15,37), to the last bit.
func TestDistanceAsRedis(t *testing.T) {
	lon, lat := Position(Score(13.361389, 38.115556))
	if km := Distance(15, 37, lon, lat) / 1000; km != 190.44242984775784 {
		t.Fatalf("distance %v km, Redis 190.44242984775784", km)
	}
}

func BenchmarkDistance(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Distance(15, 37, 13.361389, 38.115556+float64(i%100)*1e-6)
	}
}
