package rstream

import (
	"testing"

	"github.com/rekv/rekv/codec"
)

func TestListpackLengths(t *testing.T) {
	for _, c := range []struct {
		s    string
		want uint64
	}{
		{"0", 2}, {"127", 2}, {"128", 3}, {"-1", 3}, {"4095", 3}, {"-4096", 3}, {"4096", 4},
		{"32767", 4}, {"32768", 5}, {"8388607", 5}, {"8388608", 6}, {"2147483648", 10},
		{"-0", 4}, {"007", 5}, {"+5", 4}, {"", 2}, {"abc", 5},
		{string(make([]byte, 63)), 65}, {string(make([]byte, 64)), 67}, {string(make([]byte, 126)), 130},
		{string(make([]byte, 4095)), 4099}, {string(make([]byte, 4096)), 4103},
		{"9223372036854775807", 10}, {"9223372036854775808", 21},
	} {
		if got := lpStrLen([]byte(c.s)); got != c.want {
			t.Errorf("lpStrLen(%.20q) = %d, want %d", c.s, got, c.want)
		}
	}
}

func TestRaxNodes(t *testing.T) {
	key := func(ms uint64) []byte { return codec.StreamNodeField(codec.StreamID{Ms: ms})[1:] }
	for _, c := range []struct {
		ms   []uint64
		want int64
	}{
		{[]uint64{1}, 2},
		{[]uint64{1, 2}, 6}, // as redis-server 7.0.15 counts them
		// redis-server 7.0.15's XINFO STREAM after Redis's own XTRIM test.
		{[]uint64{501, 601, 701, 801, 901}, 14},
	} {
		var keys [][]byte
		for _, ms := range c.ms {
			keys = append(keys, key(ms))
		}
		if got := 1 + raxNodes(keys, 0); got != c.want {
			t.Errorf("%v: %d nodes, want %d", c.ms, got, c.want)
		}
	}
}
