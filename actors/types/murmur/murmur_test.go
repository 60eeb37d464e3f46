package murmur

import (
	"encoding/binary"
	"testing"
)

// SMHasher's verification: hash keys {}, {0}, {0,1}... {0..254} with
// seeds 256..1, then hash the concatenated hashes with seed 0; the
// published values are 0x1F0D3804 (MurmurHash64A) and 0x27864C1E
// (MurmurHash2).
func TestMurmurVerification(t *testing.T) {
	key := make([]byte, 256)
	var h64 []byte
	var h32 []byte
	for i := range 256 {
		key[i] = byte(i)
		h64 = binary.LittleEndian.AppendUint64(h64, Hash64A(key[:i], uint64(256-i)))
		h32 = binary.LittleEndian.AppendUint32(h32, Hash2(key[:i], uint32(256-i)))
	}
	if got := uint32(Hash64A(h64, 0)); got != 0x1F0D3804 {
		t.Errorf("MurmurHash64A verification %#x, want 0x1F0D3804", got)
	}
	if got := Hash2(h32, 0); got != 0x27864C1E {
		t.Errorf("MurmurHash2 verification %#x, want 0x27864C1E", got)
	}
}
