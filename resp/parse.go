package resp

import (
	"bytes"
	"errors"
	"fmt"
)

// ProtocolError is a malformed request. Its text is Redis's, without the
// "ERR " prefix that the reply adds.
type ProtocolError struct{ Msg string }

func (e *ProtocolError) Error() string { return "Protocol error: " + e.Msg }

// ErrProtocol matches every *ProtocolError with errors.Is.
var ErrProtocol = errors.New("protocol error")

// Is makes errors.Is(err, ErrProtocol) true for protocol errors.
func (e *ProtocolError) Is(target error) bool { return target == ErrProtocol }

// Limits bound what a request may declare.
type Limits struct {
	MaxBulkLen int64 // proto-max-bulk-len
	MaxArgs    int64 // max multibulk length
	MaxInline  int   // max inline request and length-line size
}

// DefaultLimits are Redis's defaults.
func DefaultLimits() Limits {
	return Limits{MaxBulkLen: 512 << 20, MaxArgs: 1 << 20, MaxInline: 64 << 10}
}

// Result is what Parse found at the start of a buffer.
type Result struct {
	Args [][]byte // the command; empty for a blank line or an empty multibulk
	N    int      // bytes consumed; 0 means the command is incomplete
	Need int      // when incomplete: total bytes needed if known, else 0
}

// Parse parses the first command in buf, appending its arguments to
// dst[:0]. An incomplete command returns N == 0 and no error.
func Parse(buf []byte, lim Limits, dst [][]byte) (Result, error) {
	if len(buf) == 0 {
		return Result{}, nil
	}
	if buf[0] == '*' {
		return parseMultibulk(buf, lim, dst[:0])
	}
	return parseInline(buf, lim, dst[:0])
}

// line returns the index of the '\r' ending the length line starting at
// pos, or -1 if the line is not complete yet.
func line(buf []byte, pos, max int, tooBig string) (int, error) {
	cr := bytes.IndexByte(buf[pos:], '\r')
	if cr < 0 {
		if len(buf)-pos > max {
			return -1, &ProtocolError{tooBig}
		}
		return -1, nil
	}
	cr += pos
	if cr+1 >= len(buf) { // the '\n' has not arrived
		return -1, nil
	}
	return cr, nil
}

func parseMultibulk(buf []byte, lim Limits, args [][]byte) (Result, error) {
	cr, err := line(buf, 0, lim.MaxInline, "too big mbulk count string")
	if cr < 0 {
		return Result{}, err
	}
	count, ok := ParseInt(buf[1:cr])
	if !ok || count > lim.MaxArgs {
		return Result{}, &ProtocolError{"invalid multibulk length"}
	}
	pos := cr + 2
	if count <= 0 {
		return Result{N: pos}, nil
	}
	for i := int64(0); i < count; i++ {
		if pos >= len(buf) {
			return Result{}, nil
		}
		cr, err := line(buf, pos, lim.MaxInline, "too big bulk count string")
		if cr < 0 {
			return Result{}, err
		}
		if buf[pos] != '$' {
			return Result{}, &ProtocolError{fmt.Sprintf("expected '$', got '%c'", buf[pos])}
		}
		n, ok := ParseInt(buf[pos+1 : cr])
		if !ok || n < 0 || n > lim.MaxBulkLen {
			return Result{}, &ProtocolError{"invalid bulk length"}
		}
		start := cr + 2
		end := start + int(n)
		if end+2 > len(buf) {
			return Result{Need: end + 2}, nil
		}
		args = append(args, buf[start:end:end])
		pos = end + 2 // like Redis, the two bytes after the data are not checked
	}
	return Result{Args: args, N: pos}, nil
}

func parseInline(buf []byte, lim Limits, args [][]byte) (Result, error) {
	nl := bytes.IndexByte(buf, '\n')
	if nl < 0 {
		if len(buf) > lim.MaxInline {
			return Result{}, &ProtocolError{"too big inline request"}
		}
		return Result{}, nil
	}
	ln := buf[:nl]
	if len(ln) > 0 && ln[len(ln)-1] == '\r' {
		ln = ln[:len(ln)-1]
	}
	args, ok := SplitArgs(ln, args)
	if !ok {
		return Result{}, &ProtocolError{"unbalanced quotes in request"}
	}
	return Result{Args: args, N: nl + 1}, nil
}

// CopyArgs copies a parsed command's arguments (which point into the
// read buffer) into one block of their own.
func CopyArgs(args [][]byte) [][]byte {
	n := 0
	for _, a := range args {
		n += len(a)
	}
	block := make([]byte, n)
	out := make([][]byte, len(args))
	off := 0
	for i, a := range args {
		copy(block[off:], a)
		out[i] = block[off : off+len(a) : off+len(a)]
		off += len(a)
	}
	return out
}

// ParseInt parses a decimal int64 exactly as Redis's string2ll does: an
// optional '-', no '+', no spaces, no leading zeros.
func ParseInt(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 20 {
		return 0, false
	}
	if len(b) == 1 && b[0] == '0' {
		return 0, true
	}
	neg := b[0] == '-'
	if neg {
		b = b[1:]
		if len(b) == 0 {
			return 0, false
		}
	}
	if b[0] < '1' || b[0] > '9' {
		return 0, false
	}
	var v uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		if v > (1<<64-1)/10 {
			return 0, false
		}
		v *= 10
		if v > 1<<64-1-uint64(c-'0') {
			return 0, false
		}
		v += uint64(c - '0')
	}
	if neg {
		if v > 1<<63 {
			return 0, false
		}
		return -int64(v), true
	}
	if v > 1<<63-1 {
		return 0, false
	}
	return int64(v), true
}
