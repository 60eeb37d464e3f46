package net

import "testing"

// maxmemory-clients is bytes, or a percentage of maxmemory (Redis 7).
func TestClientsLimit(t *testing.T) {
	s := &Server{}
	for _, tc := range []struct {
		value     string
		maxmemory int64
		want      int64
	}{
		{"0", 1 << 30, 0},
		{"1048576", 0, 1 << 20},
		{"10%", 1000, 100},
		{"10%", 0, 0}, // a percentage of no maxmemory is no limit
		{"100%", 1 << 30, 1 << 30},
	} {
		s.rt.maxMemory.Store(tc.maxmemory)
		s.setClientsLimit(tc.value)
		if got := s.clientsLimit(); got != tc.want {
			t.Errorf("maxmemory-clients %s with maxmemory %d: %d, want %d", tc.value, tc.maxmemory, got, tc.want)
		}
	}
}
