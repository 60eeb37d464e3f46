package net

import "testing"

// TestNamespaceMeter: the meter counts commands per unix second and
// reports the last full second's count as the rate.
func TestNamespaceMeter(t *testing.T) {
	var m nsMeter
	for i := range 5 {
		if n := m.count(100); n != int64(i+1) {
			t.Fatalf("command %d of second 100 counted as %d", i+1, n)
		}
	}
	if r := m.rate(100); r != 0 {
		t.Errorf("rate during the first second: %d", r)
	}
	if r := m.rate(101); r != 5 {
		t.Errorf("rate the second after: %d, want 5", r)
	}
	if n := m.count(101); n != 1 {
		t.Errorf("first command of second 101 counted as %d", n)
	}
	if r := m.rate(101); r != 5 {
		t.Errorf("rate during second 101: %d, want second 100's 5", r)
	}
	m.count(105) // seconds without commands in between
	if r := m.rate(105); r != 0 {
		t.Errorf("rate after idle seconds: %d", r)
	}
	if m.total.Load() != 7 {
		t.Errorf("total %d, want 7", m.total.Load())
	}
}
