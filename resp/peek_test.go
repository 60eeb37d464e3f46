package resp

import (
	"bytes"
	"fmt"
	"testing"
)

// argsByParse is ArgsAhead (and SecondArgs) by Parse: the second and
// third arguments (nil for a command of two) of each complete multibulk
// command of at least two from the start, until one is not complete.
func argsByParse(buf []byte, max int) (seconds, thirds [][]byte) {
	for len(seconds) < max && len(buf) > 0 && buf[0] == '*' {
		r, err := Parse(buf, DefaultLimits(), nil)
		if err != nil || r.N == 0 {
			break
		}
		if len(r.Args) >= 2 {
			seconds = append(seconds, r.Args[1])
			var third []byte
			if len(r.Args) >= 3 {
				third = r.Args[2]
			}
			if len(r.Args) >= 4 && scoreBeforeMember(r.Args[0]) {
				third = r.Args[3]
			}
			thirds = append(thirds, third)
		}
		buf = buf[r.N:]
	}
	return seconds, thirds
}

func TestSecondArgs(t *testing.T) {
	for _, tc := range []struct {
		name, buf string
		want      []string
	}{
		{"pipeline", "*2\r\n$3\r\nGET\r\n$1\r\na\r\n*3\r\n$3\r\nSET\r\n$2\r\nbb\r\n$1\r\nv\r\n", []string{"a", "bb"}},
		{"one argument skipped", "*1\r\n$4\r\nPING\r\n*2\r\n$3\r\nGET\r\n$0\r\n\r\n", []string{""}},
		{"empty multibulk", "*0\r\n*2\r\n$3\r\nGET\r\n$1\r\nk\r\n", []string{"k"}},
		{"stops at incomplete", "*2\r\n$3\r\nGET\r\n$1\r\na\r\n*2\r\n$3\r\nGET\r\n$5\r\nab", []string{"a"}},
		{"stops at inline", "*2\r\n$3\r\nGET\r\n$1\r\na\r\nGET b\r\n*2\r\n$3\r\nGET\r\n$1\r\nc\r\n", []string{"a"}},
		{"stops at a bad length", "*2\r\n$3\r\nGET\r\n$x\r\na\r\n", nil},
		{"negative count", "*-1\r\n*2\r\n$3\r\nGET\r\n$1\r\nc\r\n", nil},
		{"huge bulk length", "*2\r\n$3\r\nGET\r\n$999999999999999999\r\na\r\n", nil},
		{"nothing", "", nil},
	} {
		got := SecondArgs([]byte(tc.buf), make([][]byte, 0, 16))
		if len(got) != len(tc.want) {
			t.Fatalf("%s: %q, want %q", tc.name, got, tc.want)
		}
		for i := range got {
			if string(got[i]) != tc.want[i] {
				t.Fatalf("%s: %q, want %q", tc.name, got, tc.want)
			}
		}
	}
	// dst's capacity bounds the look-ahead.
	buf := bytes.Repeat([]byte("*2\r\n$3\r\nGET\r\n$1\r\nk\r\n"), 20)
	if got := SecondArgs(buf, make([][]byte, 0, 16)); len(got) != 16 {
		t.Fatalf("20 commands, room for 16: got %d", len(got))
	}
}

// FuzzSecondArgs: on any input SecondArgs finds, in order, the second
// arguments Parse finds, or a prefix of them (it stops where Parse would
// see a command it rejects, and it does not take negative counts), and
// never reads past buf.
func FuzzSecondArgs(f *testing.F) {
	f.Add([]byte("*2\r\n$3\r\nGET\r\n$1\r\na\r\n*3\r\n$3\r\nSET\r\n$2\r\nbb\r\n$1\r\nv\r\n"))
	f.Add([]byte("*1\r\n$4\r\nPING\r\n*2\r\n$3\r\nGET\r\n$0\r\n\r\n"))
	f.Add([]byte("*2\r\n$3\r\nGET\r\n$-1\r\n"))
	f.Fuzz(func(t *testing.T, buf []byte) {
		got := SecondArgs(buf, make([][]byte, 0, 16))
		want, wantThirds := argsByParse(buf, 16)
		if len(got) > len(want) {
			t.Fatalf("SecondArgs %q, Parse %q", got, want)
		}
		for i := range got {
			if !bytes.Equal(got[i], want[i]) {
				t.Fatalf("SecondArgs %q, Parse %q", got, want)
			}
		}
		seconds, thirds := ArgsAhead(buf, make([][]byte, 0, 16), make([][]byte, 0, 16))
		if len(seconds) != len(got) || len(thirds) != len(seconds) {
			t.Fatalf("ArgsAhead found %d seconds and %d thirds, SecondArgs %d", len(seconds), len(thirds), len(got))
		}
		for i := range thirds {
			if !bytes.Equal(seconds[i], got[i]) || !bytes.Equal(thirds[i], wantThirds[i]) || (thirds[i] == nil) != (wantThirds[i] == nil) {
				t.Fatalf("ArgsAhead %q %q, Parse %q %q", seconds, thirds, want, wantThirds)
			}
		}
	})
}

// BenchmarkSecondArgs: the look-ahead over a pipeline of sixteen GETs.
func BenchmarkSecondArgs(b *testing.B) {
	buf := bytes.Repeat([]byte("*2\r\n$3\r\nGET\r\n$16\r\nkey:000000012345\r\n"), 16)
	dst := make([][]byte, 0, 16)
	for b.Loop() {
		dst = SecondArgs(buf, dst)
	}
	if len(dst) != 16 {
		b.Fatalf("%d keys", len(dst))
	}
}

// TestArgsAhead: each command of two or more arguments gives its second,
// and its third or nil (ZADD's and ZINCRBY's fourth); thirds is optional.
func TestArgsAhead(t *testing.T) {
	buf := []byte("*3\r\n$4\r\nHSET\r\n$1\r\nh\r\n$1\r\nf\r\n*1\r\n$4\r\nPING\r\n*2\r\n$3\r\nGET\r\n$1\r\nk\r\n*4\r\n$4\r\nSADD\r\n$1\r\ns\r\n$0\r\n\r\n$1\r\nx\r\n")
	seconds, thirds := ArgsAhead(buf, make([][]byte, 0, 16), make([][]byte, 0, 16))
	if fmt.Sprintf("%q %q", seconds, thirds) != `["h" "k" "s"] ["f" "" ""]` || thirds[1] != nil || thirds[2] == nil {
		t.Fatalf("seconds %q, thirds %q", seconds, thirds)
	}
	if s, th := ArgsAhead(buf, make([][]byte, 0, 2), nil); len(s) != 2 || th != nil {
		t.Fatalf("capacity 2, no thirds: %q %q", s, th)
	}
	// ZADD and ZINCRBY give their member, after the score; a ZADD of
	// three gives its third.
	z := []byte("*4\r\n$4\r\nzAdd\r\n$1\r\nz\r\n$1\r\n1\r\n$1\r\nm\r\n" +
		"*4\r\n$7\r\nZINCRBY\r\n$1\r\nz\r\n$1\r\n2\r\n$1\r\nn\r\n" +
		"*3\r\n$4\r\nZADD\r\n$1\r\nz\r\n$1\r\n3\r\n")
	seconds, thirds = ArgsAhead(z, make([][]byte, 0, 16), make([][]byte, 0, 16))
	if fmt.Sprintf("%q %q", seconds, thirds) != `["z" "z" "z"] ["m" "n" "3"]` {
		t.Fatalf("sorted sets: seconds %q, thirds %q", seconds, thirds)
	}
}
