package store

import "testing"

// TestLFUCounter: Redis's counter arithmetic — a new key at 5, the first
// accesses counting surely, later ones rarely, a decrement per
// lfu-decay-time minutes idle, 255 the ceiling.
func TestLFUCounter(t *testing.T) {
	l := NewLFU()
	const t0 = int64(1_700_000_000_000)
	v := l.initial(t0)
	if c := l.counter(v, t0); c != LFUInitVal {
		t.Fatalf("new key counter %d", c)
	}
	if c := l.counter(l.access(v, t0), t0); c != LFUInitVal+1 {
		t.Fatalf("first access: %d, want 6 (probability 1 at the initial value)", c)
	}
	// Many accesses grow it logarithmically: 1,000 stay far below 255.
	w := v
	for i := 0; i < 1000; i++ {
		w = l.access(w, t0)
	}
	if c := l.counter(w, t0); c <= 10 || c > 40 {
		t.Fatalf("1,000 accesses: counter %d", c)
	}
	// Idle minutes decrement it, one per lfu-decay-time.
	c0 := l.counter(w, t0)
	if c := l.counter(w, t0+3*60_000); c != c0-3 {
		t.Fatalf("3 idle minutes: %d, want %d", c, c0-3)
	}
	if c := l.counter(w, t0+1000*60_000); c != 0 {
		t.Fatalf("long idle: %d", c)
	}
	l.Set("lfu-decay-time", 0, "")
	if c := l.counter(w, t0+1000*60_000); c != c0 {
		t.Fatalf("decay off: %d", c)
	}
	// The ceiling.
	top := minutes(t0)<<8 | 255
	if c := l.counter(l.access(top, t0), t0); c != 255 {
		t.Fatalf("past the ceiling: %d", c)
	}
	// The policy switch.
	for policy, on := range map[string]bool{"allkeys-lfu": true, "volatile-lfu": true, "allkeys-lru": false, "noeviction": false} {
		l.Set("maxmemory-policy", 0, policy)
		if l.On() != on {
			t.Fatalf("%s: On = %v", policy, l.On())
		}
	}
}
