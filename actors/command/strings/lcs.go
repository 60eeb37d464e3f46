package strings

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// LCS key1 key2 [LEN] [IDX] [MINMATCHLEN len] [WITHMATCHLEN]
type lcs struct {
	a, b         []byte
	argErr       error // an option error, answered after the keys' types
	getLen       bool
	getIdx       bool
	withMatchLen bool
	minMatchLen  int64
}

var (
	errLCSTypes = &rerr.Error{Msg: "ERR The specified keys must contain string values"}
	errLCSBoth  = &rerr.Error{Msg: "ERR If you want both the length and indexes, please just use IDX."}
	errLCSMem   = &rerr.Error{Msg: "ERR Insufficient memory, failed allocating transient memory for LCS"}
)

// maxLCSCells bounds the dynamic-programming table (4 bytes a cell, so
// 256 MiB): LCS is quadratic in the strings' lengths. Past it the command
// fails with the error Redis gives when that allocation fails.
const maxLCSCells = 1 << 26

func parseLCS(args [][]byte) (command.Runner, error) {
	l := lcs{a: args[1], b: args[2]}
	l.argErr = l.parseOptions(args[3:])
	return l, nil
}

func (l *lcs) parseOptions(opts [][]byte) error {
	for j := 0; j < len(opts); j++ {
		switch o := opts[j]; {
		case command.Is(o, "idx"):
			l.getIdx = true
		case command.Is(o, "len"):
			l.getLen = true
		case command.Is(o, "withmatchlen"):
			l.withMatchLen = true
		case command.Is(o, "minmatchlen") && j+1 < len(opts):
			n, err := command.Int(opts[j+1])
			if err != nil {
				return err
			}
			l.minMatchLen = max(n, 0)
			j++
		default:
			return rerr.ErrSyntax
		}
	}
	if l.getIdx && l.getLen {
		return errLCSBoth
	}
	return nil
}

func (l lcs) Run(c *command.Ctx) error {
	var vals [2][]byte
	for i, k := range [][]byte{l.a, l.b} {
		s, err := c.Tx.OpenString(k)
		if err == rerr.ErrWrongType {
			return errLCSTypes
		}
		if err != nil {
			return err
		}
		if vals[i], err = s.Value(); err != nil {
			return err
		}
	}
	if l.argErr != nil {
		return l.argErr
	}
	a, b := vals[0], vals[1]
	if int64(len(a)+1)*int64(len(b)+1) > maxLCSCells {
		return errLCSMem
	}
	// table[i*(nb+1)+j] is the LCS length of a[:i] and b[:j].
	nb := len(b) + 1
	table := make([]uint32, (len(a)+1)*nb)
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			if a[i-1] == b[j-1] {
				table[i*nb+j] = table[(i-1)*nb+j-1] + 1
			} else {
				table[i*nb+j] = max(table[(i-1)*nb+j], table[i*nb+j-1])
			}
		}
	}
	n := table[len(a)*nb+len(b)]
	if l.getLen {
		c.W.Int(int64(n))
		return nil
	}
	// Walk back from the end, collecting the LCS and, for IDX, the
	// matched ranges (from the end of the strings to their start).
	out := make([]byte, n)
	type match struct{ aStart, aEnd, bStart, bEnd int }
	var matches []match
	cur := match{aStart: -1}
	flush := func() {
		if cur.aStart >= 0 {
			if ml := cur.aEnd - cur.aStart + 1; int64(ml) >= l.minMatchLen {
				matches = append(matches, cur)
			}
			cur.aStart = -1
		}
	}
	i, j, k := len(a), len(b), int(n)
	for i > 0 && j > 0 {
		if a[i-1] == b[j-1] {
			k--
			out[k] = a[i-1]
			if cur.aStart >= 0 && cur.aStart == i && cur.bStart == j {
				cur.aStart, cur.bStart = i-1, j-1
			} else {
				flush()
				cur = match{i - 1, i - 1, j - 1, j - 1}
			}
			i--
			j--
			if i == 0 || j == 0 {
				flush()
			}
			continue
		}
		flush()
		if table[(i-1)*nb+j] > table[i*nb+j-1] {
			i--
		} else {
			j--
		}
	}
	if !l.getIdx {
		c.W.Bulk(out)
		return nil
	}
	c.W.Map(2)
	c.W.BulkString("matches")
	c.W.Array(len(matches))
	for _, m := range matches {
		c.W.Array(2 + btoi(l.withMatchLen))
		c.W.Array(2)
		c.W.Int(int64(m.aStart))
		c.W.Int(int64(m.aEnd))
		c.W.Array(2)
		c.W.Int(int64(m.bStart))
		c.W.Int(int64(m.bEnd))
		if l.withMatchLen {
			c.W.Int(int64(m.aEnd - m.aStart + 1))
		}
	}
	c.W.BulkString("len")
	c.W.Int(int64(n))
	return nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
