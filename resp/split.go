package resp

// SplitArgs splits an inline request line the way Redis's sdssplitargs does:
// whitespace-separated words, "double quotes" with \n \r \t \b \a \\ \" and
// \xHH escapes, and 'single quotes' with \'. A closing quote must be followed
// by whitespace or the end of the line. It reports false on unbalanced quotes.
func SplitArgs(line []byte, dst [][]byte) ([][]byte, bool) {
	p := 0
	for {
		for p < len(line) && isSpace(line[p]) {
			p++
		}
		if p >= len(line) {
			return dst, true
		}
		var cur []byte
		inq, insq, done := false, false, false
		for !done {
			switch {
			case inq:
				if p >= len(line) {
					return nil, false
				}
				switch {
				case line[p] == '\\' && p+3 < len(line) && line[p+1] == 'x' && isHex(line[p+2]) && isHex(line[p+3]):
					cur = append(cur, hexVal(line[p+2])<<4|hexVal(line[p+3]))
					p += 3
				case line[p] == '\\' && p+1 < len(line):
					p++
					cur = append(cur, unescape(line[p]))
				case line[p] == '"':
					if p+1 < len(line) && !isSpace(line[p+1]) {
						return nil, false
					}
					done = true
				default:
					cur = append(cur, line[p])
				}
			case insq:
				if p >= len(line) {
					return nil, false
				}
				switch {
				case line[p] == '\\' && p+1 < len(line) && line[p+1] == '\'':
					p++
					cur = append(cur, '\'')
				case line[p] == '\'':
					if p+1 < len(line) && !isSpace(line[p+1]) {
						return nil, false
					}
					done = true
				default:
					cur = append(cur, line[p])
				}
			default:
				if p >= len(line) {
					done = true
					break
				}
				switch line[p] {
				case ' ', '\n', '\r', '\t', 0:
					done = true
				case '"':
					inq = true
				case '\'':
					insq = true
				default:
					cur = append(cur, line[p])
				}
			}
			if p < len(line) {
				p++
			}
		}
		if cur == nil {
			cur = []byte{}
		}
		dst = append(dst, cur)
	}
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\v' || c == '\f'
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexVal(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

func unescape(c byte) byte {
	switch c {
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	case 'b':
		return '\b'
	case 'a':
		return '\a'
	}
	return c
}
