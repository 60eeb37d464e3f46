package resp

import "testing"

// BenchmarkParse parses a pipelined SET (allocs/op is the number to watch:
// Parse reuses the caller's argument slice).
func BenchmarkParse(b *testing.B) {
	cmd := []byte("*3\r\n$3\r\nSET\r\n$16\r\nkey:000000012345\r\n$3\r\nxxx\r\n")
	var scratch [][]byte
	b.SetBytes(int64(len(cmd)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		r, err := Parse(cmd, DefaultLimits(), scratch)
		if err != nil || r.N != len(cmd) {
			b.Fatal(err, r.N)
		}
		scratch = r.Args[:0]
	}
}

// BenchmarkWriteBulk encodes a 100-byte bulk reply.
func BenchmarkWriteBulk(b *testing.B) {
	v := make([]byte, 100)
	w := NewWriter(2)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		w.Reset(2)
		w.Bulk(v)
	}
}
