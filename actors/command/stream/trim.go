package stream

import (
	"math"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rstream"
	"github.com/rekv/rekv/codec"
)

// trimSpec is a MAXLEN or MINID trimming strategy (XADD, XTRIM).
type trimSpec struct {
	set    bool
	maxLen bool // MAXLEN, else MINID
	approx bool
	length int64
	minID  codec.StreamID
	limit  int64 // 0: none given
	hasLim bool
}

// parseTrimOption tries to read a trimming option at args[i]; it returns
// the next index, or i unchanged when args[i] is no trimming option.
func (t *trimSpec) parseTrimOption(args [][]byte, i int) (int, error) {
	switch {
	case command.Is(args[i], "maxlen"), command.Is(args[i], "minid"):
		maxLen := command.Is(args[i], "maxlen")
		if t.set && t.maxLen != maxLen {
			return i, rerr.Errorf("ERR syntax error, MAXLEN and MINID options at the same time are not compatible")
		}
		t.set, t.maxLen = true, maxLen
		i++
		if i < len(args) && (string(args[i]) == "~" || string(args[i]) == "=") {
			t.approx = string(args[i]) == "~"
			i++
		}
		if i >= len(args) {
			return i, rerr.ErrSyntax
		}
		if t.maxLen {
			n, err := command.Int(args[i])
			if err != nil {
				return i, err
			}
			if n < 0 {
				return i, rerr.Errorf("ERR The MAXLEN argument must be >= 0.")
			}
			t.length = n
		} else {
			id, err := parseID(args[i], 0, false)
			if err != nil {
				return i, err
			}
			t.minID = id
		}
		return i + 1, nil
	case command.Is(args[i], "limit"):
		if i+1 >= len(args) {
			return i, rerr.ErrSyntax
		}
		n, err := command.Int(args[i+1])
		if err != nil {
			return i, err
		}
		if n < 0 {
			return i, rerr.Errorf("ERR The LIMIT argument must be >= 0.")
		}
		t.limit, t.hasLim = n, true
		return i + 2, nil
	}
	return i, nil
}

// check reports Redis's errors for LIMIT misuse.
func (t *trimSpec) check() error {
	switch {
	case t.hasLim && t.limit != 0 && !t.set:
		return rerr.Errorf("ERR syntax error, LIMIT cannot be used without specifying a trimming strategy")
	case t.hasLim && !t.approx:
		return rerr.Errorf("ERR syntax error, LIMIT cannot be used without the special ~ option")
	}
	return nil
}

// apply trims s, with the node limits of the server c runs on, and
// returns how many entries it deleted. An approximate trim without LIMIT
// removes at most 100 nodes' worth of entries, as in Redis.
func (t *trimSpec) apply(c *command.Ctx, s *rstream.Stream) (int64, error) {
	if !t.set {
		return 0, nil
	}
	a := rstream.TrimArgs{MaxLen: t.maxLen, Len: t.length, MinID: t.minID, Approx: t.approx}
	if t.approx {
		entries, _ := c.StreamNodeLimits()
		a.Limit = 100 * min(entries, math.MaxInt64/100)
		if t.hasLim {
			a.Limit = t.limit
		}
	}
	return s.Trim(a)
}
