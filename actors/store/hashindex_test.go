package store

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestHashIndexAgainstMap: random inserts and removes, with tags drawn
// from small spaces so that runs cross each other's homes, wrap around
// the table's end and share tags; after every step each entry is found
// among its tag's candidates, a removed one no longer, and the count
// matches.
func TestHashIndexAgainstMap(t *testing.T) {
	for _, tc := range []struct{ tags, steps int }{{1, 2_000}, {7, 5_000}, {64, 20_000}, {1 << 20, 20_000}} {
		tags := tc.tags
		t.Run(fmt.Sprint(tags), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(tags), 9))
			var x hashIndex
			want := map[int]uint32{} // slot -> tag
			free := []int{}
			next := 0
			candidates := func(tag uint32) map[int]bool {
				got := map[int]bool{}
				for p, i := x.first(tag); i >= 0; p, i = x.next(p, tag) {
					if got[i] {
						t.Fatalf("slot %d listed twice for tag %d", i, tag)
					}
					got[i] = true
				}
				return got
			}
			for step := range tc.steps {
				if len(want) > 0 && rng.IntN(5) < 2 {
					for slot, tag := range want { // a random one: map order
						if !x.remove(tag, slot) {
							t.Fatalf("step %d: remove of slot %d (tag %d) found nothing", step, slot, tag)
						}
						if candidates(tag)[slot] {
							t.Fatalf("step %d: slot %d still found after its removal", step, slot)
						}
						if x.remove(tag, slot) {
							t.Fatalf("step %d: slot %d removed twice", step, slot)
						}
						delete(want, slot)
						free = append(free, slot)
						break
					}
				} else {
					slot := next
					if len(free) > 0 {
						slot, free = free[len(free)-1], free[:len(free)-1]
					} else {
						next++
					}
					tag := uint32(rng.IntN(tags)) * 2654435761
					x.insert(tag, slot)
					want[slot] = tag
				}
				if x.len() != len(want) {
					t.Fatalf("step %d: len %d, want %d", step, x.len(), len(want))
				}
				if step%97 == 0 || len(want) < 50 {
					for slot, tag := range want {
						if !candidates(tag)[slot] {
							t.Fatalf("step %d: slot %d (tag %d) not found", step, slot, tag)
						}
					}
				}
				if 2*x.len() > len(x.cells) {
					t.Fatalf("step %d: %d entries in %d cells: over half full", step, x.len(), len(x.cells))
				}
			}
			x.reset()
			if _, i := x.first(1); i != -1 || x.len() != 0 {
				t.Fatal("a reset index still finds entries")
			}
		})
	}
}

// TestClockIndexTagCollisions: keys that share a tag (here every key) are
// told apart by their keys, through eviction and removal.
func TestClockIndexTagCollisions(t *testing.T) {
	c := newClockIndex[string, int](8, func(string) uint64 { return 42 << 32 }, nil)
	for i := range 100 {
		k := fmt.Sprint(i)
		if c.find(k, 0) >= 0 {
			t.Fatalf("%s found before it was added", k)
		}
		c.slots[c.add(k)].val = i
		if c.len() > 8 {
			t.Fatalf("%d entries, size 8", c.len())
		}
		if j := c.find(fmt.Sprint(i/2), 0); i%5 == 0 && j >= 0 {
			c.removeAt(j)
			if c.find(fmt.Sprint(i/2), 0) >= 0 {
				t.Fatalf("%d found after its removal", i/2)
			}
		}
		for j := range c.slots {
			s := &c.slots[j]
			if s.used && c.find(s.key, 0) != j {
				t.Fatalf("after %d: %q in slot %d not found there", i, s.key, j)
			}
		}
	}
}
