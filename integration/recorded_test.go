package integration

import (
	"fmt"
	"strconv"
	"strings"
)

// A script file in testdata/ holds cases in pebble's datadriven style:
// the command line (quoted like redis-cli; "~ " first for an unordered
// reply), "----", then Redis's reply to it, and a blank line. When the
// RESP3 reply differs from the RESP2 one, it follows under "---- resp3".
// Lines starting with "#" before a command are comments, kept by
// -rewrite. A reply is written one RESP line per file line ("\r\n"
// removed); a line that is empty, is not printable ASCII, or could be
// read as a separator or a quoted line is written Go-quoted instead, so
// every reply reads back byte for byte.
//
//	PFADD h a b c
//	----
//	:1
//
//	HGETALL h
//	----
//	*2
//	$1
//	f
//	$1
//	v
//	---- resp3
//	%1
//	...
type recordedCase struct {
	comments     []string
	cmd          string
	resp2, resp3 string // "" when not recorded
}

// parseRecorded reads a script file.
func parseRecorded(text string) ([]recordedCase, error) {
	var out []recordedCase
	lines := strings.Split(text, "\n")
	var comments []string
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		switch {
		case line == "":
			continue
		case strings.HasPrefix(line, "#"):
			comments = append(comments, line)
			continue
		}
		c := recordedCase{comments: comments, cmd: line}
		comments = nil
		if i+1 < len(lines) && lines[i+1] == "----" {
			i += 2
			var reply []string
			for ; i < len(lines) && lines[i] != "" && lines[i] != "---- resp3"; i++ {
				reply = append(reply, lines[i])
			}
			r, err := decodeReply(reply)
			if err != nil {
				return nil, fmt.Errorf("line %d: %v", i+1, err)
			}
			c.resp2, c.resp3 = r, r
			if i < len(lines) && lines[i] == "---- resp3" {
				reply = nil
				for i++; i < len(lines) && lines[i] != ""; i++ {
					reply = append(reply, lines[i])
				}
				if c.resp3, err = decodeReply(reply); err != nil {
					return nil, fmt.Errorf("line %d: %v", i+1, err)
				}
			}
		}
		out = append(out, c)
	}
	return out, nil
}

// formatRecorded writes a script file.
func formatRecorded(cases []recordedCase) string {
	var b strings.Builder
	for _, c := range cases {
		for _, com := range c.comments {
			b.WriteString(com + "\n")
		}
		b.WriteString(c.cmd + "\n----\n")
		b.WriteString(encodeReply(c.resp2))
		if c.resp3 != c.resp2 {
			b.WriteString("---- resp3\n")
			b.WriteString(encodeReply(c.resp3))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// encodeReply renders a reply as lines (see recordedCase).
func encodeReply(reply string) string {
	var b strings.Builder
	for _, piece := range strings.Split(strings.TrimSuffix(reply, "\r\n"), "\r\n") {
		if needsQuote(piece) {
			piece = strconv.Quote(piece)
		}
		b.WriteString(piece + "\n")
	}
	return b.String()
}

func needsQuote(s string) bool {
	if s == "" || s[0] == '"' || strings.HasPrefix(s, "----") {
		return true
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return true
		}
	}
	return false
}

// decodeReply reads back what encodeReply wrote.
func decodeReply(lines []string) (string, error) {
	if len(lines) == 0 {
		return "", fmt.Errorf("empty reply")
	}
	var b strings.Builder
	for _, l := range lines {
		if l != "" && l[0] == '"' {
			u, err := strconv.Unquote(l)
			if err != nil {
				return "", fmt.Errorf("bad quoted line %s: %v", l, err)
			}
			l = u
		}
		b.WriteString(l + "\r\n")
	}
	return b.String(), nil
}
