package resp

import (
	"math"
	"slices"
	"strconv"
)

// Writer appends replies in the protocol version of its client (2 or 3).
// The zero value writes RESP2.
type Writer struct {
	buf   []byte
	proto int
}

// NewWriter returns a Writer for protocol proto (2 or 3).
func NewWriter(proto int) *Writer { return &Writer{proto: proto} }

// Reset empties the writer and sets its protocol.
func (w *Writer) Reset(proto int) {
	w.buf = w.buf[:0]
	w.proto = proto
}

// Proto returns the protocol version replies are written in.
func (w *Writer) Proto() int {
	if w.proto == 3 {
		return 3
	}
	return 2
}

// Bytes returns what was written; it aliases the writer's buffer.
func (w *Writer) Bytes() []byte { return w.buf }

// Len returns how many bytes were written.
func (w *Writer) Len() int { return len(w.buf) }

// Truncate drops what was written past the first n bytes.
func (w *Writer) Truncate(n int) { w.buf = w.buf[:n] }

// Detach returns what was written as a slice the writer no longer uses: a
// copy when it is short, else the buffer itself (the writer starts a new
// one), so a big reply is not copied again.
func (w *Writer) Detach() []byte {
	if len(w.buf) < 64<<10 {
		return append([]byte(nil), w.buf...)
	}
	b := w.buf
	w.buf = nil
	return b
}

func (w *Writer) header(c byte, n int64) {
	w.buf = append(w.buf, c)
	w.buf = strconv.AppendInt(w.buf, n, 10)
	w.buf = append(w.buf, '\r', '\n')
}

// Simple writes a simple string (+OK).
func (w *Writer) Simple(s string) {
	w.buf = append(w.buf, '+')
	w.buf = append(w.buf, s...)
	w.buf = append(w.buf, '\r', '\n')
}

// OK writes +OK.
func (w *Writer) OK() { w.buf = append(w.buf, "+OK\r\n"...) }

// Error writes an error reply; msg starts with its code (ERR, WRONGTYPE...).
// Line breaks in msg are replaced by spaces, as Redis does.
func (w *Writer) Error(msg string) {
	w.buf = append(w.buf, '-')
	for i := 0; i < len(msg); i++ {
		c := msg[i]
		if c == '\r' || c == '\n' {
			c = ' '
		}
		w.buf = append(w.buf, c)
	}
	w.buf = append(w.buf, '\r', '\n')
}

// Int writes an integer reply.
func (w *Writer) Int(n int64) { w.header(':', n) }

// Bulk writes a bulk string.
func (w *Writer) Bulk(b []byte) {
	w.header('$', int64(len(b)))
	w.buf = append(w.buf, b...)
	w.buf = append(w.buf, '\r', '\n')
}

// BulkHeader starts a bulk string of n bytes, which the caller then
// appends (Raw) before ending it with BulkEnd; the buffer grows once, to
// hold all of it.
func (w *Writer) BulkHeader(n int64) {
	w.buf = slices.Grow(w.buf, int(n)+24)
	w.header('$', n)
}

// BulkEnd ends a bulk string begun with BulkHeader.
func (w *Writer) BulkEnd() { w.buf = append(w.buf, '\r', '\n') }

// BulkString writes a bulk string from a Go string.
func (w *Writer) BulkString(s string) {
	w.header('$', int64(len(s)))
	w.buf = append(w.buf, s...)
	w.buf = append(w.buf, '\r', '\n')
}

// Null writes a null bulk string (RESP2 $-1, RESP3 _).
func (w *Writer) Null() {
	if w.proto == 3 {
		w.buf = append(w.buf, "_\r\n"...)
		return
	}
	w.buf = append(w.buf, "$-1\r\n"...)
}

// NullArray writes a null array (RESP2 *-1, RESP3 _).
func (w *Writer) NullArray() {
	if w.proto == 3 {
		w.buf = append(w.buf, "_\r\n"...)
		return
	}
	w.buf = append(w.buf, "*-1\r\n"...)
}

// Array writes an array header for n elements.
func (w *Writer) Array(n int) { w.header('*', int64(n)) }

// SimpleArray writes an array of simple strings (the lines of a HELP
// reply).
func (w *Writer) SimpleArray(lines []string) {
	w.Array(len(lines))
	for _, l := range lines {
		w.Simple(l)
	}
}

// Map writes a map header for n pairs (RESP2: an array of 2n elements).
func (w *Writer) Map(n int) {
	if w.proto == 3 {
		w.header('%', int64(n))
		return
	}
	w.header('*', int64(2*n))
}

// Set writes a set header for n elements (RESP2: an array).
func (w *Writer) Set(n int) {
	if w.proto == 3 {
		w.header('~', int64(n))
		return
	}
	w.header('*', int64(n))
}

// Push writes a push header for n elements (RESP2: an array).
func (w *Writer) Push(n int) {
	if w.proto == 3 {
		w.header('>', int64(n))
		return
	}
	w.header('*', int64(n))
}

// Double writes a double (RESP3 ,x; RESP2 a bulk string), formatted as
// Redis 7.0 does ("%.17g").
func (w *Writer) Double(f float64) {
	if w.proto == 3 {
		w.buf = append(w.buf, ',')
		w.buf = AppendFloat(w.buf, f)
		w.buf = append(w.buf, '\r', '\n')
		return
	}
	w.Bulk(AppendFloat(nil, f))
}

// DoubleText writes a double already formatted (GEOPOS's long-double
// form): RESP3 ,text; RESP2 a bulk string.
func (w *Writer) DoubleText(text string) {
	if w.proto == 3 {
		w.buf = append(w.buf, ',')
		w.buf = append(w.buf, text...)
		w.buf = append(w.buf, '\r', '\n')
		return
	}
	w.BulkString(text)
}

// Bool writes a boolean (RESP3 #t/#f; RESP2 :1/:0).
func (w *Writer) Bool(b bool) {
	switch {
	case w.proto == 3 && b:
		w.buf = append(w.buf, "#t\r\n"...)
	case w.proto == 3:
		w.buf = append(w.buf, "#f\r\n"...)
	case b:
		w.Int(1)
	default:
		w.Int(0)
	}
}

// BigNumber writes a big number given as its decimal text (RESP3 (; RESP2
// a bulk string).
func (w *Writer) BigNumber(s string) {
	if w.proto == 3 {
		w.buf = append(w.buf, '(')
		w.buf = append(w.buf, s...)
		w.buf = append(w.buf, '\r', '\n')
		return
	}
	w.BulkString(s)
}

// Verbatim writes a verbatim text string (RESP3 =; RESP2 a bulk string).
func (w *Writer) Verbatim(s string) { w.VerbatimFormat(s, "txt") }

// VerbatimFormat is Verbatim with a format other than txt: its first
// three bytes, padded with spaces (RESP3 gives a format three bytes).
func (w *Writer) VerbatimFormat(s, format string) {
	if w.proto == 3 {
		w.header('=', int64(len(s)+4))
		w.buf = append(w.buf, (format + "   ")[:3]...)
		w.buf = append(w.buf, ':')
		w.buf = append(w.buf, s...)
		w.buf = append(w.buf, '\r', '\n')
		return
	}
	w.BulkString(s)
}

// AppendFloat appends f as Redis 7.0 prints doubles: inf, -inf, or C's
// "%.17g" (which Go's 'g' with 17 digits reproduces, exponent form
// included).
func AppendFloat(dst []byte, f float64) []byte {
	switch {
	case math.IsInf(f, 1):
		return append(dst, "inf"...)
	case math.IsInf(f, -1):
		return append(dst, "-inf"...)
	case math.IsNaN(f):
		return append(dst, "nan"...)
	}
	return strconv.AppendFloat(dst, f, 'g', 17, 64)
}

// Raw appends an already encoded reply (EXEC's array of replies).
func (w *Writer) Raw(b []byte) { w.buf = append(w.buf, b...) }

// AppendCommand appends args to dst as a RESP array of bulk strings: a
// command line as a client (or a master, to its replicas) sends it.
func AppendCommand(dst []byte, args ...[]byte) []byte {
	dst = append(dst, '*')
	dst = strconv.AppendInt(dst, int64(len(args)), 10)
	dst = append(dst, '\r', '\n')
	for _, a := range args {
		dst = append(dst, '$')
		dst = strconv.AppendInt(dst, int64(len(a)), 10)
		dst = append(dst, '\r', '\n')
		dst = append(dst, a...)
		dst = append(dst, '\r', '\n')
	}
	return dst
}
