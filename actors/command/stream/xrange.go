package stream

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rstream"
	"github.com/rekv/rekv/codec"
)

// XRANGE key start end [COUNT count] and XREVRANGE key end start [COUNT
// count]: bounds are IDs, "-", "+", or "(ID" (exclusive). Reads only the
// entries it returns.
type xrange struct {
	key        []byte
	start, end codec.StreamID
	rev        bool
	count      int64 // -1: all
}

func rangeParser(rev bool) func([][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) {
		x := xrange{key: args[1], rev: rev, count: -1}
		lo, hi := args[2], args[3]
		if rev {
			lo, hi = hi, lo
		}
		var err error
		if x.start, err = parseRangeID(lo, true); err != nil {
			return nil, err
		}
		if x.end, err = parseRangeID(hi, false); err != nil {
			return nil, err
		}
		for i := 4; i < len(args); i++ {
			if !command.Is(args[i], "count") || i+1 >= len(args) {
				return nil, rerr.ErrSyntax
			}
			i++
			n, err := command.Int(args[i])
			if err != nil {
				return nil, err
			}
			x.count = max(n, 0)
		}
		return x, nil
	}
}

func (x xrange) Run(c *command.Ctx) error {
	s, err := rstream.Open(c.Tx, x.key, false)
	if err != nil {
		return err
	}
	if s == nil {
		c.W.Array(0)
		return nil
	}
	if x.count == 0 {
		c.W.NullArray() // Redis 7.0 replies a null array to COUNT 0 (or less)
		return nil
	}
	es, err := s.Range(x.start, x.end, x.rev, x.count)
	if err != nil {
		return err
	}
	writeEntries(c, es)
	return nil
}
