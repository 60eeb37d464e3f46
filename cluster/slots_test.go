package cluster

import "testing"

func TestKeySlot(t *testing.T) {
	for _, tc := range []struct {
		key  string
		slot int
	}{
		// Values from redis-server 7.0's CLUSTER KEYSLOT.
		{"foo", 12182},
		{"bar", 5061},
		{"", 0},
		{"{user1000}.following", 3443},
		{"{user1000}.followers", 3443},
		{"user1000", 3443},
		{"foo{}{bar}", 8363}, // an empty tag: the whole key
		{"foo{{bar}}zap", 4015},
		{"foo{bar}{zap}", 5061},
		{"{", 4092},
	} {
		if got := KeySlot([]byte(tc.key)); got != tc.slot {
			t.Errorf("KeySlot(%q) = %d, want %d", tc.key, got, tc.slot)
		}
	}
	if got := crc16([]byte("123456789")); got != 0x31c3 {
		t.Errorf("crc16 check value %#x, want 0x31c3", got)
	}
}
