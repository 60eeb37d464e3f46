package rbloom_test

import (
	"bytes"
	"testing"

	"github.com/rekv/rekv/actors/types/rbloom"
)

// A header that decodes re-encodes to the same bytes (nothing is lost or
// invented), and no input panics the decoder.
func FuzzDecodeChain(f *testing.F) {
	c, _ := rbloom.NewChain(100, 0.01, 2, false)
	f.Add(c.Encode())
	c, _ = rbloom.NewChain(7, 0.3, 4, true)
	f.Add(c.Encode())
	f.Fuzz(func(t *testing.T, b []byte) {
		ch, err := rbloom.DecodeChain(b)
		if err != nil {
			return
		}
		if re := ch.Encode(); !bytes.Equal(re, b) {
			t.Fatalf("re-encode %x != %x", re, b)
		}
	})
}
