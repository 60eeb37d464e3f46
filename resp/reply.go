package resp

import (
	"bytes"
	"errors"
	"strconv"
)

// ErrBadReply reports bytes that are not one well-formed reply.
var ErrBadReply = errors.New("resp: malformed reply")

// Reply is one parsed reply (RESP2 or RESP3), as rekv's own commands write
// them: Kind is the type byte ('+', '-', ':', '$', '*', '%', '~', '>',
// ',', '#', '_', '(', '='). A null bulk or array has Null set.
type Reply struct {
	Kind  byte
	Null  bool
	Str   []byte  // '+', '-', '$', '(', ',', '=' (the text after "xxx:")
	Int   int64   // ':'
	Bool  bool    // '#'
	Elems []Reply // '*', '~', '>'; '%' holds key, value, key, value...
}

// ParseReply parses the first reply in b and returns it with the number of
// bytes it took. Strings point into b. An attribute (RESP3 '|') is
// skipped: the reply after it is returned, the bytes of both counted.
func ParseReply(b []byte) (Reply, int, error) {
	if len(b) < 3 {
		return Reply{}, 0, ErrBadReply
	}
	end := bytes.Index(b, []byte("\r\n"))
	if end < 1 {
		return Reply{}, 0, ErrBadReply
	}
	r := Reply{Kind: b[0]}
	line, n := b[1:end], end+2
	switch r.Kind {
	case '+', '-', ',', '(':
		r.Str = line
		return r, n, nil
	case '_':
		r.Null = true
		return r, n, nil
	case '#':
		r.Bool = len(line) == 1 && line[0] == 't'
		return r, n, nil
	case ':':
		v, err := strconv.ParseInt(string(line), 10, 64)
		if err != nil {
			return Reply{}, 0, ErrBadReply
		}
		r.Int = v
		return r, n, nil
	}
	size, err := strconv.Atoi(string(line))
	if err != nil {
		return Reply{}, 0, ErrBadReply
	}
	switch r.Kind {
	case '$', '=':
		if size < 0 {
			r.Null = true
			return r, n, nil
		}
		if n+size+2 > len(b) {
			return Reply{}, 0, ErrBadReply
		}
		r.Str = b[n : n+size]
		if r.Kind == '=' && len(r.Str) >= 4 {
			r.Str = r.Str[4:]
		}
		return r, n + size + 2, nil
	case '*', '~', '>', '%':
		if size < 0 {
			r.Null = true
			return r, n, nil
		}
		if r.Kind == '%' {
			size *= 2
		}
		r.Elems = make([]Reply, 0, size)
		for i := 0; i < size; i++ {
			e, m, err := ParseReply(b[n:])
			if err != nil {
				return Reply{}, 0, err
			}
			r.Elems = append(r.Elems, e)
			n += m
		}
		return r, n, nil
	case '|':
		// An attribute: its pairs describe the reply after it, which is
		// the reply parsed (as Redis's Lua conversion drops them).
		if size < 0 {
			return Reply{}, 0, ErrBadReply
		}
		for i := 0; i < 2*size; i++ {
			_, m, err := ParseReply(b[n:])
			if err != nil {
				return Reply{}, 0, err
			}
			n += m
		}
		e, m, err := ParseReply(b[n:])
		if err != nil {
			return Reply{}, 0, err
		}
		return e, n + m, nil
	}
	return Reply{}, 0, ErrBadReply
}
