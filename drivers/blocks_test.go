package drivers

import "testing"

// TestBlocks: slices are carved from blocks of Min doubling to Max bytes,
// never overlap and are capped at their length; requests over Own, and
// every request of a zero Blocks, get an allocation of their own.
func TestBlocks(t *testing.T) {
	b := Blocks{Min: 8, Max: 32, Own: 16}
	var got [][]byte
	for _, n := range []int{3, 5, 4, 16, 17, 10, 10, 10, 10} {
		s := b.Take(n)
		if len(s) != n || cap(s) != n {
			t.Fatalf("Take(%d): len %d cap %d", n, len(s), cap(s))
		}
		for i := range s {
			s[i] = byte(len(got) + 1)
		}
		got = append(got, s)
	}
	for i, s := range got {
		for _, c := range s {
			if c != byte(i+1) {
				t.Fatalf("slice %d was overwritten by a later one: %v", i, s)
			}
		}
	}
	if cap(b.cur) != 32 {
		t.Fatalf("last block holds %d bytes, want the 32 of Max", cap(b.cur))
	}
	own := b.Take(17)
	if &own[0] == &b.cur[:cap(b.cur)][0] || len(b.cur) != 30 {
		t.Fatalf("a request over Own came from the block (block len %d)", len(b.cur))
	}
	var z Blocks
	x, y := z.Take(1), z.Take(1)
	if z.cur != nil || &x[0] == &y[0] {
		t.Fatal("a zero Blocks carved a block")
	}
}
