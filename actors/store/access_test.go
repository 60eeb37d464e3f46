package store

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestAccessClockGenerations: a clock of two generations of 2 keys
// remembers the last access of recent keys, and reports a key it forgot
// (or never saw) as last accessed no later than the time its generation
// stopped taking accesses.
func TestAccessClockGenerations(t *testing.T) {
	a := NewAccessClock(2, 100_000)
	if got := a.last("never"); got != 100_000 {
		t.Fatalf("unseen key at start: %d, want the start 100_000", got)
	}
	a.touch("a", 110_000)
	a.touch("b", 120_000)
	a.touch("a", 130_000) // already in the generation: no rotation
	if got := a.last("a"); got != 130_000 {
		t.Fatalf("a = %d", got)
	}
	a.touch("c", 140_000) // full: a, b move to the previous generation
	if a.last("b") != 120_000 || a.last("c") != 140_000 || a.last("never") != 100_000 {
		t.Fatalf("after one rotation: b %d c %d never %d", a.last("b"), a.last("c"), a.last("never"))
	}
	a.touch("d", 150_000)
	a.touch("e", 160_000) // a, b dropped; they were last touched before 140_000
	for _, k := range []string{"a", "b", "never"} {
		if got := a.last(k); got != 140_000 {
			t.Fatalf("%s after its generation was dropped: %d, want 140_000", k, got)
		}
	}
	if a.last("c") != 140_000 || a.last("d") != 150_000 || a.last("e") != 160_000 {
		t.Fatal("recent keys forgotten")
	}
}

// TestAccessClockSeconds: the clock keeps whole seconds from its start,
// rounded down, also before the start (RESTORE IDLETIME of a key older
// than the process).
func TestAccessClockSeconds(t *testing.T) {
	const start = 1_700_000_000_000
	a := NewAccessClock(8, start)
	for _, c := range []struct{ at, want int64 }{
		{start, start},
		{start + 1_999, start + 1_000},
		{start - 1, start - 1_000},
		{start - 86_400_000*365*30 - 500, start - 86_400_000*365*30 - 1_000},
		{start + 86_400_000*365*30 + 999, start + 86_400_000*365*30},
	} {
		a.touch("k", c.at)
		if got := a.last("k"); got != c.want {
			t.Errorf("touched at start%+d ms: last start%+d, want start%+d", c.at-start, got-start, c.want-start)
		}
	}
}

// TestAccessClockModel: many keys through a small clock (its tables
// growing, its generations turning over) against a model of two
// generations of maps.
func TestAccessClockModel(t *testing.T) {
	const size, start = 1000, 1_000_000
	a := NewAccessClock(size, start)
	cur, prev := map[string]int64{}, map[string]int64{}
	floor, rotated := int64(start), int64(start)
	want := func(k string) int64 {
		if v, ok := cur[k]; ok {
			return v
		}
		if v, ok := prev[k]; ok {
			return v
		}
		return floor
	}
	r := rand.New(rand.NewPCG(1, 2))
	now := int64(start)
	for i := range 20_000 {
		now += int64(r.IntN(3)) * 1000
		k := fmt.Sprintf("key:%d", r.IntN(3000))
		if _, ok := cur[k]; !ok && len(cur) >= size {
			floor, prev, cur, rotated = rotated, cur, map[string]int64{}, now
		}
		cur[k] = now
		a.touch(k, now)
		if i%97 == 0 {
			for j := range 3000 {
				q := fmt.Sprintf("key:%d", j)
				if got, w := a.last(q), want(q); got != w {
					t.Fatalf("after %d touches: last(%s) = %d, want %d", i+1, q, got, w)
				}
			}
		}
	}
	if n := len(a.cur.slots); n > 2048 {
		t.Errorf("a generation of %d keys has %d slots, want at most 2048", size, n)
	}
}

// BenchmarkAccessClockTouch: accesses of a million distinct keys through
// a clock of 2¹⁸ keys a generation (the default meta cache size, one
// shard), as when a load runs past the meta cache.
func BenchmarkAccessClockTouch(b *testing.B) {
	keys := make([]string, 1<<20)
	for i := range keys {
		keys[i] = fmt.Sprintf("\x00key:%d", i)
	}
	a := NewAccessClock(1<<18, 0)
	b.ResetTimer()
	for i := range b.N {
		a.touch(keys[i&(1<<20-1)], int64(i))
	}
}
