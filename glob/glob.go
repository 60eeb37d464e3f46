package glob

// Match reports whether s matches pattern.
func Match(pattern, s []byte, nocase bool) bool {
	skip := false
	return match(pattern, s, nocase, &skip, 0)
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func at(b []byte, i int) byte {
	if i < len(b) {
		return b[i]
	}
	return 0
}

func match(p, s []byte, nocase bool, skipLonger *bool, nesting int) bool {
	if nesting > 1000 {
		return false
	}
	for len(p) > 0 && len(s) > 0 {
		switch p[0] {
		case '*':
			for len(p) > 1 && p[1] == '*' {
				p = p[1:]
			}
			if len(p) == 1 {
				return true
			}
			for len(s) > 0 {
				if match(p[1:], s, nocase, skipLonger, nesting+1) {
					return true
				}
				if *skipLonger {
					return false
				}
				s = s[1:]
			}
			*skipLonger = true
			return false
		case '?':
			s = s[1:]
		case '[':
			p = p[1:]
			not := at(p, 0) == '^'
			if not {
				p = p[1:]
			}
			matched := false
			for {
				if at(p, 0) == '\\' && len(p) >= 2 {
					p = p[1:]
					if p[0] == s[0] {
						matched = true
					}
				} else if len(p) > 0 && p[0] == ']' {
					break
				} else if len(p) == 0 {
					break
				} else if len(p) >= 3 && p[1] == '-' {
					start, end, c := p[0], p[2], s[0]
					if start > end {
						start, end = end, start
					}
					if nocase {
						start, end, c = lower(start), lower(end), lower(c)
					}
					p = p[2:]
					if c >= start && c <= end {
						matched = true
					}
				} else if p[0] == s[0] || nocase && lower(p[0]) == lower(s[0]) {
					matched = true
				}
				p = p[1:]
			}
			if not {
				matched = !matched
			}
			if !matched {
				return false
			}
			s = s[1:]
		case '\\':
			if len(p) >= 2 {
				p = p[1:]
			}
			fallthrough
		default:
			if p[0] != s[0] && !(nocase && lower(p[0]) == lower(s[0])) {
				return false
			}
			s = s[1:]
		}
		if len(p) > 0 {
			p = p[1:]
		}
		if len(s) == 0 {
			for len(p) > 0 && p[0] == '*' {
				p = p[1:]
			}
			break
		}
	}
	return len(p) == 0 && len(s) == 0
}

// LiteralPrefix returns the prefix every match of pattern starts with, so a
// scan may seek to it.
func LiteralPrefix(pattern []byte) []byte {
	var out []byte
	for i := 0; i < len(pattern); i++ {
		switch c := pattern[i]; c {
		case '*', '?', '[':
			return out
		case '\\':
			if i+1 < len(pattern) {
				i++
				out = append(out, pattern[i])
				continue
			}
			return out
		default:
			out = append(out, c)
		}
	}
	return out
}
