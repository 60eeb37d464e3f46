package resp

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	lim := DefaultLimits()
	cases := []struct {
		name string
		in   string
		args []string
		n    int
		err  string
	}{
		{"multibulk", "*2\r\n$3\r\nGET\r\n$1\r\nk\r\n", []string{"GET", "k"}, 20, ""},
		{"binary", "*1\r\n$3\r\na\r\n\r\n", []string{"a\r\n"}, 13, ""},
		{"empty bulk", "*1\r\n$0\r\n\r\n", []string{""}, 10, ""},
		{"pipelined rest ignored", "*1\r\n$4\r\nPING\r\n*1\r\n", []string{"PING"}, 14, ""},
		{"incomplete count", "*2", nil, 0, ""},
		{"incomplete count lf", "*2\r", nil, 0, ""},
		{"incomplete bulk", "*2\r\n$3\r\nGET\r\n$1\r\n", nil, 0, ""},
		{"incomplete data", "*1\r\n$5\r\nab", nil, 0, ""},
		{"zero multibulk", "*0\r\n", nil, 4, ""},
		{"negative multibulk", "*-1\r\n", nil, 5, ""},
		{"bad count", "*x\r\n", nil, 0, "Protocol error: invalid multibulk length"},
		{"plus count", "*+1\r\n", nil, 0, "Protocol error: invalid multibulk length"},
		{"too many args", "*1048577\r\n", nil, 0, "Protocol error: invalid multibulk length"},
		{"not dollar", "*1\r\n:1\r\n", nil, 0, "Protocol error: expected '$', got ':'"},
		{"bad bulk len", "*1\r\n$x\r\n", nil, 0, "Protocol error: invalid bulk length"},
		{"negative bulk len", "*1\r\n$-1\r\n", nil, 0, "Protocol error: invalid bulk length"},
		{"huge bulk len", "*1\r\n$4294967296\r\n", nil, 0, "Protocol error: invalid bulk length"},
		{"inline", "SET k v\r\n", []string{"SET", "k", "v"}, 9, ""},
		{"inline lf only", "PING\n", []string{"PING"}, 5, ""},
		{"inline quoted", "SET \"a b\" 'c\\'d' \"\\x41\\n\"\r\n", []string{"SET", "a b", "c'd", "A\n"}, 27, ""},
		{"inline blank", "\r\n", nil, 2, ""},
		{"inline incomplete", "PING", nil, 0, ""},
		{"inline unbalanced", "SET \"a\r\n", nil, 0, "Protocol error: unbalanced quotes in request"},
		{"inline quote glued", "SET \"a\"b\r\n", nil, 0, "Protocol error: unbalanced quotes in request"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := Parse([]byte(c.in), lim, nil)
			if c.err != "" {
				if err == nil || err.Error() != c.err || !errors.Is(err, ErrProtocol) {
					t.Fatalf("err = %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.N != c.n {
				t.Fatalf("N = %d, want %d", r.N, c.n)
			}
			var got []string
			for _, a := range r.Args {
				got = append(got, string(a))
			}
			if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", c.args) {
				t.Fatalf("args = %q, want %q", got, c.args)
			}
		})
	}
}

func TestParseLongLines(t *testing.T) {
	lim := DefaultLimits()
	long := strings.Repeat("a", lim.MaxInline+1)
	for _, c := range []struct{ in, err string }{
		{long, "Protocol error: too big inline request"},
		{"*" + long, "Protocol error: too big mbulk count string"},
		{"*1\r\n$" + long, "Protocol error: too big bulk count string"},
	} {
		_, err := Parse([]byte(c.in), lim, nil)
		if err == nil || err.Error() != c.err {
			t.Errorf("err = %v, want %q", err, c.err)
		}
	}
}

func TestParseNeedHint(t *testing.T) {
	in := []byte("*1\r\n$10\r\nabc")
	r, err := Parse(in, DefaultLimits(), nil)
	if err != nil || r.N != 0 || r.Need != 4+5+10+2 {
		t.Fatalf("r = %+v err = %v", r, err)
	}
}

// TestParseByteByByte feeds a pipeline one byte at a time, as a slow client
// would, and checks every command comes out once, whole and in order.
func TestParseByteByByte(t *testing.T) {
	var in []byte
	for i := 0; i < 20; i++ {
		in = fmt.Appendf(in, "*3\r\n$3\r\nSET\r\n$%d\r\nkey%d\r\n$1\r\n%d\r\n", len(fmt.Sprint("key", i)), i, i%10)
		in = append(in, "PING\r\n"...)
	}
	var got []string
	buf := []byte{}
	for _, b := range in {
		buf = append(buf, b)
		for {
			r, err := Parse(buf, DefaultLimits(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.N == 0 {
				break
			}
			var parts []string
			for _, a := range r.Args {
				parts = append(parts, string(a))
			}
			got = append(got, strings.Join(parts, " "))
			buf = buf[r.N:]
		}
	}
	if len(got) != 40 || got[0] != "SET key0 0" || got[1] != "PING" || got[38] != "SET key19 9" {
		t.Fatalf("got %d commands: %q", len(got), got)
	}
}

func TestParseInt(t *testing.T) {
	good := map[string]int64{"0": 0, "1": 1, "-1": -1, "9223372036854775807": 1<<63 - 1, "-9223372036854775808": -1 << 63}
	for s, want := range good {
		if v, ok := ParseInt([]byte(s)); !ok || v != want {
			t.Errorf("ParseInt(%q) = %d %v", s, v, ok)
		}
	}
	for _, s := range []string{"", "-", "+1", "01", "-0", " 1", "1 ", "1.0", "9223372036854775808", "-9223372036854775809", "99999999999999999999"} {
		if _, ok := ParseInt([]byte(s)); ok {
			t.Errorf("ParseInt(%q) accepted", s)
		}
	}
}

func TestWriter(t *testing.T) {
	cases := []struct {
		name   string
		write  func(w *Writer)
		r2, r3 string
	}{
		{"ok", func(w *Writer) { w.OK() }, "+OK\r\n", "+OK\r\n"},
		{"error", func(w *Writer) { w.Error("ERR a\r\nb") }, "-ERR a  b\r\n", "-ERR a  b\r\n"},
		{"int", func(w *Writer) { w.Int(-5) }, ":-5\r\n", ":-5\r\n"},
		{"bulk", func(w *Writer) { w.Bulk([]byte("hi")) }, "$2\r\nhi\r\n", "$2\r\nhi\r\n"},
		{"null", func(w *Writer) { w.Null() }, "$-1\r\n", "_\r\n"},
		{"null array", func(w *Writer) { w.NullArray() }, "*-1\r\n", "_\r\n"},
		{"map", func(w *Writer) { w.Map(1); w.BulkString("a"); w.Int(1) }, "*2\r\n$1\r\na\r\n:1\r\n", "%1\r\n$1\r\na\r\n:1\r\n"},
		{"double", func(w *Writer) { w.Double(1.5) }, "$3\r\n1.5\r\n", ",1.5\r\n"},
		{"inf", func(w *Writer) { w.Double(mathInf()) }, "$3\r\ninf\r\n", ",inf\r\n"},
		{"%.17g", func(w *Writer) { w.Double(1.1) }, "$18\r\n1.1000000000000001\r\n", ",1.1000000000000001\r\n"},
		{"exponent", func(w *Writer) { w.Double(1e20) }, "$5\r\n1e+20\r\n", ",1e+20\r\n"},
		{"bool", func(w *Writer) { w.Bool(true) }, ":1\r\n", "#t\r\n"},
		{"verbatim", func(w *Writer) { w.Verbatim("x") }, "$1\r\nx\r\n", "=5\r\ntxt:x\r\n"},
		{"set", func(w *Writer) { w.Set(0) }, "*0\r\n", "~0\r\n"},
	}
	for _, c := range cases {
		for proto, want := range map[int]string{2: c.r2, 3: c.r3} {
			w := NewWriter(proto)
			c.write(w)
			if got := string(w.Bytes()); got != want {
				t.Errorf("%s RESP%d = %q, want %q", c.name, proto, got, want)
			}
		}
	}
}

func mathInf() float64 { var z float64; return 1 / z }

func FuzzParse(f *testing.F) {
	for _, s := range []string{"*2\r\n$3\r\nGET\r\n$1\r\nk\r\n", "PING\r\n", "SET \"a\" 'b'\r\n", "*1\r\n$-1\r\n", "*3\r\n$1\r\n"} {
		f.Add([]byte(s))
	}
	lim := Limits{MaxBulkLen: 1 << 20, MaxArgs: 1024, MaxInline: 1024}
	f.Fuzz(func(t *testing.T, in []byte) {
		r, err := Parse(in, lim, nil)
		if err != nil {
			return
		}
		if r.N < 0 || r.N > len(in) {
			t.Fatalf("consumed %d of %d", r.N, len(in))
		}
		if r.N == 0 && len(r.Args) != 0 {
			t.Fatal("args from an incomplete command")
		}
		if int64(len(r.Args)) > lim.MaxArgs {
			t.Fatal("more args than the limit")
		}
		// A complete multibulk command re-encoded must parse back the same.
		if r.N > 0 && len(in) > 0 && in[0] == '*' && len(r.Args) > 0 {
			var enc []byte
			enc = fmt.Appendf(enc, "*%d\r\n", len(r.Args))
			for _, a := range r.Args {
				enc = fmt.Appendf(enc, "$%d\r\n%s\r\n", len(a), a)
			}
			r2, err := Parse(enc, lim, nil)
			if err != nil || r2.N != len(enc) || len(r2.Args) != len(r.Args) {
				t.Fatalf("re-parse: %+v %v", r2, err)
			}
			for i := range r.Args {
				if !bytes.Equal(r.Args[i], r2.Args[i]) {
					t.Fatalf("arg %d differs", i)
				}
			}
		}
	})
}

func TestParseReplyRoundTrip(t *testing.T) {
	w := NewWriter(3)
	w.Map(1)
	w.BulkString("k")
	w.Array(4)
	w.Int(-7)
	w.Null()
	w.Double(1.5)
	w.Bool(true)
	w.Simple("OK")
	w.Error("ERR x y")
	b := w.Bytes()
	r, n, err := ParseReply(b)
	if err != nil || r.Kind != '%' || len(r.Elems) != 2 {
		t.Fatalf("map: %+v %v", r, err)
	}
	arr := r.Elems[1].Elems
	if string(r.Elems[0].Str) != "k" || arr[0].Int != -7 || !arr[1].Null || string(arr[2].Str) != "1.5" || !arr[3].Bool {
		t.Fatalf("elements: %+v", r)
	}
	r2, n2, err := ParseReply(b[n:])
	if err != nil || r2.Kind != '+' || string(r2.Str) != "OK" {
		t.Fatalf("status: %+v %v", r2, err)
	}
	r3, _, err := ParseReply(b[n+n2:])
	if err != nil || r3.Kind != '-' || string(r3.Str) != "ERR x y" {
		t.Fatalf("error: %+v %v", r3, err)
	}
	for _, bad := range []string{"", "$5\r\nab\r\n", "*2\r\n:1\r\n", ":x\r\n", "?\r\n"} {
		if _, _, err := ParseReply([]byte(bad)); err == nil {
			t.Errorf("ParseReply(%q) accepted", bad)
		}
	}
}

// An attribute is skipped: the reply after it is returned, and both are
// consumed; verbatim strings keep a format of three bytes.
func TestParseReplyAttribute(t *testing.T) {
	b := []byte("|1\r\n$14\r\nkey-popularity\r\n*2\r\n$7\r\nkey:123\r\n:90\r\n$4\r\nreal\r\n:1\r\n")
	r, n, err := ParseReply(b)
	if err != nil || r.Kind != '$' || string(r.Str) != "real" || string(b[n:]) != ":1\r\n" {
		t.Fatalf("attribute then a bulk: %+v, %d, %v", r, n, err)
	}
	for _, bad := range []string{"|1\r\n$1\r\na\r\n", "|-1\r\n:1\r\n", "|1\r\n:1\r\n:2\r\n"} {
		if _, _, err := ParseReply([]byte(bad)); err == nil {
			t.Errorf("ParseReply(%q) accepted", bad)
		}
	}
	for _, tc := range []struct{ format, want string }{{"txt", "=5\r\ntxt:a\r\n"}, {"mkd", "=5\r\nmkd:a\r\n"},
		{"x", "=5\r\nx  :a\r\n"}, {"markdown", "=5\r\nmar:a\r\n"}} {
		w := NewWriter(3)
		w.VerbatimFormat("a", tc.format)
		if got := string(w.Bytes()); got != tc.want {
			t.Errorf("VerbatimFormat(a, %q) = %q, want %q", tc.format, got, tc.want)
		}
	}
}
