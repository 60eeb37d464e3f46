package resp

import (
	"bytes"
	"fmt"
	"testing"
)

// feedAll feeds in to a fresh Assembler in pieces of the given sizes
// (cycled), as a connection would: unconsumed bytes are offered again with
// the next piece appended.
func feedAll(in []byte, lim Limits, sizes []int) (n int, args [][]byte, err error) {
	a := NewAssembler(lim)
	var pending []byte
	off, i := 0, 0
	for {
		step := sizes[i%len(sizes)]
		i++
		end := min(off+step, len(in))
		pending = append(pending, in[off:end]...)
		off = end
		used, got, ferr := a.Feed(pending)
		n += used
		pending = pending[used:]
		if ferr != nil || got != nil {
			return n, got, ferr
		}
		if off == len(in) {
			if used == 0 {
				return n, nil, nil
			}
		}
	}
}

func TestAssemblerMatchesParse(t *testing.T) {
	lim := Limits{MaxBulkLen: 1 << 30, MaxArgs: 1024, MaxInline: 1024}
	big := bytes.Repeat([]byte("x"), 3*BigArg+17)
	cmd := fmt.Appendf(nil, "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$%d\r\n%s\r\n", len(big), big)
	for _, sizes := range [][]int{{len(cmd)}, {1}, {7, 65536, 3}, {BigArg + 1}} {
		if len(sizes) == 1 && sizes[0] == 1 {
			sizes = []int{1, 4096, 2} // byte-wise everywhere would take long on 3 MiB
		}
		n, args, err := feedAll(cmd, lim, sizes)
		if err != nil || n != len(cmd) || len(args) != 3 || string(args[0]) != "SET" || !bytes.Equal(args[2], big) {
			t.Fatalf("sizes %v: n %d of %d, %d args, err %v", sizes, n, len(cmd), len(args), err)
		}
		if cap(args[2]) != len(big) {
			t.Fatalf("argument buffer cap %d, want exactly %d", cap(args[2]), len(big))
		}
	}
	for _, bad := range []string{"*2\r\n$3\r\nGET\r\n+x\r\n", "*1\r\n$-5\r\n", "*x\r\n", "*1\r\n$99999999999\r\n"} {
		_, perr := Parse([]byte(bad), lim, nil)
		_, _, aerr := feedAll([]byte(bad), lim, []int{2})
		if perr == nil || aerr == nil || perr.Error() != aerr.Error() {
			t.Fatalf("%q: Parse %v, Assembler %v", bad, perr, aerr)
		}
	}
}

// parseGrowing parses in as a connection fed in pieces of the given sizes
// does: Parse of each longer prefix, until one completes or fails.
func parseGrowing(in []byte, lim Limits, sizes []int) (Result, error) {
	for off, i := 0, 0; ; i++ {
		off = min(off+sizes[i%len(sizes)], len(in))
		r, err := Parse(in[:off], lim, nil)
		if err != nil || r.N > 0 || off == len(in) {
			return r, err
		}
	}
}

// FuzzAssembler: fed any input in any pieces, the Assembler returns what
// Parse returns for the same pieces: the same command and length, the
// same error, or nothing yet.
func FuzzAssembler(f *testing.F) {
	for _, s := range []string{"*2\r\n$3\r\nGET\r\n$1\r\nk\r\n", "*0\r\n", "*1\r\n$0\r\n\r\n", "*3\r\n$1\r\n", "*1\r\n$2\r\nab"} {
		f.Add([]byte(s), uint8(3))
	}
	lim := Limits{MaxBulkLen: 1 << 20, MaxArgs: 1024, MaxInline: 1024}
	f.Fuzz(func(t *testing.T, in []byte, step uint8) {
		if len(in) == 0 || in[0] != '*' {
			return
		}
		sizes := []int{int(step%17) + 1, int(step/17) + 1}
		r, perr := parseGrowing(in, lim, sizes)
		n, args, aerr := feedAll(in, lim, sizes)
		switch {
		case perr != nil:
			if aerr == nil || aerr.Error() != perr.Error() {
				t.Fatalf("Parse error %v, Assembler %v", perr, aerr)
			}
		case r.N == 0:
			if aerr != nil || args != nil {
				t.Fatalf("incomplete for Parse, Assembler gave %q %v", args, aerr)
			}
		default:
			if aerr != nil || n != r.N || len(args) != len(r.Args) {
				t.Fatalf("Parse %d args in %d bytes, Assembler %d in %d (%v)", len(r.Args), r.N, len(args), n, aerr)
			}
			for i := range args {
				if !bytes.Equal(args[i], r.Args[i]) {
					t.Fatalf("arg %d: %q vs %q", i, args[i], r.Args[i])
				}
			}
		}
	})
}
