package codec

import "testing"

// BenchmarkMetaRoundTrip encodes and decodes a string meta with payload.
func BenchmarkMetaRoundTrip(b *testing.B) {
	m := Meta{Type: TypeString, Version: 1 << 40, ExpireAt: 1_700_000_000_000}
	payload := make([]byte, 100)
	buf := make([]byte, 0, 256)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		buf = AppendMeta(buf[:0], m, payload)
		if _, p, err := DecodeMeta(buf); err != nil || len(p) != 100 {
			b.Fatal(err)
		}
	}
}

// BenchmarkSubKeyRoundTrip encodes and decodes a member sub-key.
func BenchmarkSubKeyRoundTrip(b *testing.B) {
	key, field := []byte("user:000012345"), []byte("field:name")
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		buf = AppendSubKey(buf[:0], 0, key, 1<<40, field)
		if _, _, _, f, err := DecodeSubKey(buf); err != nil || len(f) != len(field) {
			b.Fatal(err)
		}
	}
}
