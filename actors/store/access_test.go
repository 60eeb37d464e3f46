package store

import "testing"

// TestAccessClockGenerations: a clock of two generations of 2 keys
// remembers the last access of recent keys, and reports a key it forgot
// (or never saw) as last accessed no later than the time its generation
// stopped taking accesses.
func TestAccessClockGenerations(t *testing.T) {
	a := NewAccessClock(2, 100)
	if got := a.last("never"); got != 100 {
		t.Fatalf("unseen key at start: %d, want the start 100", got)
	}
	a.touch("a", 110)
	a.touch("b", 120)
	a.touch("a", 130) // already in the generation: no rotation
	if got := a.last("a"); got != 130 {
		t.Fatalf("a = %d", got)
	}
	a.touch("c", 140) // full: a, b move to the previous generation
	if a.last("b") != 120 || a.last("c") != 140 || a.last("never") != 100 {
		t.Fatalf("after one rotation: b %d c %d never %d", a.last("b"), a.last("c"), a.last("never"))
	}
	a.touch("d", 150)
	a.touch("e", 160) // a, b dropped; they were last touched before 140
	for _, k := range []string{"a", "b", "never"} {
		if got := a.last(k); got != 140 {
			t.Fatalf("%s after its generation was dropped: %d, want 140", k, got)
		}
	}
	if a.last("c") != 140 || a.last("d") != 150 || a.last("e") != 160 {
		t.Fatal("recent keys forgotten")
	}
}
