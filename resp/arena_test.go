package resp

import (
	"bytes"
	"fmt"
	"testing"
)

// TestArgArenaCopies: each copy equals its source and stays so when the
// source changes; writing into or appending to one copy (its argument
// slice or an argument) changes no other copy; commands past the small
// bounds are copied alone; and a small copy costs one allocation (its
// bytes), where CopyArgs makes two.
func TestArgArenaCopies(t *testing.T) {
	var a ArgArena
	type kept struct{ want, got [][]byte }
	var all []kept
	src := make([]byte, 4096)
	for i := range 3000 {
		var args [][]byte
		switch i % 4 {
		case 0:
			args = [][]byte{[]byte("GET"), fmt.Appendf(nil, "key:%d", i)}
		case 1:
			args = [][]byte{[]byte("SET"), fmt.Appendf(nil, "k%d", i), bytes.Repeat([]byte{byte(i)}, i%300)}
		case 2: // past arenaMaxBytes
			args = [][]byte{[]byte("SET"), []byte("big"), bytes.Repeat([]byte{'b'}, 2000+i)}
		case 3: // past arenaMaxArgs, and empty arguments
			args = make([][]byte, 20+i%30)
			for j := range args {
				args[j] = src[j : j+j%3]
			}
		}
		want := make([][]byte, len(args))
		for j, b := range args {
			want[j] = bytes.Clone(b)
		}
		got := a.Copy(args)
		for _, b := range args { // the read buffer is reused
			for j := range b {
				b[j] ^= 0xff
			}
		}
		all = append(all, kept{want, got})
	}
	for i, k := range all { // once all are made: into the copies after them
		if got := k.got; i%5 == 0 && len(got) > 1 {
			_ = append(got, []byte("x"))           // must not write into the next copy
			_ = append(got[1], "appended"...)      // nor into the next argument
			got[0] = append(got[0][:0], got[0]...) // rewrite in place: its own bytes
		}
	}
	for i, k := range all {
		if len(k.got) != len(k.want) {
			t.Fatalf("copy %d: %d arguments, want %d", i, len(k.got), len(k.want))
		}
		for j := range k.want {
			if !bytes.Equal(k.got[j], k.want[j]) {
				t.Fatalf("copy %d argument %d = %q, want %q", i, j, k.got[j], k.want[j])
			}
		}
	}
	small := [][]byte{[]byte("GET"), []byte("key:123456")}
	if n := testing.AllocsPerRun(1000, func() { a.Copy(small) }); n > 1.05 {
		t.Fatalf("%.3f allocations a small copy, want one (its bytes)", n)
	}
}
