package resp

import "bytes"

// SecondArgs appends to dst[:0] the second argument of each command at
// the start of buf, in order, until dst is full (its capacity), buf ends,
// or a command is incomplete, inline or malformed; a command of fewer
// than two arguments adds nothing. The slices point into buf. It is a
// look ahead, for reading ahead what the commands' keys will need (most
// commands' first key is their second argument): it never fails, and
// Parse alone decides what buf holds.
func SecondArgs(buf []byte, dst [][]byte) [][]byte {
	dst, _ = ArgsAhead(buf, dst, nil)
	return dst
}

// ArgsAhead is SecondArgs that also appends to thirds[:0], when thirds
// is not nil, each of those commands' third argument (nil for a command
// of two): a hash's field or a set's member after its key. For ZADD and
// ZINCRBY of four or more it is the fourth, the member after the score
// (ZADD's options before the score make it the score: a wasted read).
func ArgsAhead(buf []byte, seconds, thirds [][]byte) ([][]byte, [][]byte) {
	seconds = seconds[:0]
	if thirds != nil {
		thirds = thirds[:0]
	}
	pos := 0
	for len(seconds) < cap(seconds) && pos < len(buf) && buf[pos] == '*' {
		count, next, ok := lengthLine(buf, pos)
		if !ok {
			break
		}
		pos = next
		var first, second, third, fourth []byte
		for i := int64(0); i < count; i++ {
			var n int64
			if pos >= len(buf) || buf[pos] != '$' {
				ok = false
				break
			}
			if n, pos, ok = lengthLine(buf, pos); !ok || n > int64(len(buf)-pos-2) {
				ok = false
				break
			}
			switch i {
			case 0:
				first = buf[pos : pos+int(n) : pos+int(n)]
			case 1:
				second = buf[pos : pos+int(n) : pos+int(n)]
			case 2:
				third = buf[pos : pos+int(n) : pos+int(n)]
			case 3:
				fourth = buf[pos : pos+int(n) : pos+int(n)]
			}
			pos += int(n) + 2
		}
		if !ok {
			break
		}
		if count >= 2 {
			seconds = append(seconds, second)
			if thirds != nil {
				if count >= 4 && scoreBeforeMember(first) {
					third = fourth
				}
				thirds = append(thirds, third)
			}
		}
	}
	return seconds, thirds
}

// lengthLine reads the length line at buf[pos:] (a type byte, a
// non-negative integer as ParseInt reads it, of at most 18 digits, CRLF)
// and returns the integer and the position after the line.
func lengthLine(buf []byte, pos int) (int64, int, bool) {
	i, v := pos+1, int64(0)
	for ; i < len(buf) && i-pos <= 18 && buf[i] >= '0' && buf[i] <= '9'; i++ {
		v = v*10 + int64(buf[i]-'0')
	}
	digits := i - pos - 1
	if digits == 0 || digits > 18 || digits > 1 && buf[pos+1] == '0' || // ParseInt takes no leading zero
		i+1 >= len(buf) || buf[i] != '\r' || buf[i+1] != '\n' {
		return 0, 0, false
	}
	return v, i + 2, true
}

// scoreBeforeMember reports whether name is ZADD or ZINCRBY (any case),
// whose member is their fourth argument, after a score.
func scoreBeforeMember(name []byte) bool {
	return bytes.EqualFold(name, []byte("zadd")) || bytes.EqualFold(name, []byte("zincrby"))
}
