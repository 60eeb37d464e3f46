package stream

import (
	"errors"
	"math"
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rstream"
	"github.com/rekv/rekv/codec"
)

// XREAD [COUNT count] [BLOCK milliseconds] STREAMS key [key ...] id [id ...]:
// the entries after each ID ("$": after the stream's last entry when the
// command runs). With BLOCK and nothing to read it waits; an XADD to one
// of the keys serves it with that stream's new entries.
type xread struct {
	readOpts
	command.Wait // its Keys are the streams' keys
	ids          []codec.StreamID
	last         []bool // "$"
}

// readOpts are the COUNT and BLOCK options of XREAD and XREADGROUP, and
// the command's name as the client wrote it (for errors).
type readOpts struct {
	count   int64 // 0: all
	block   bool
	timeout time.Duration
	name    string
}

// scriptBlock is the refusal of BLOCK in a script's call: Redis's stream
// reads refuse it there (the list and sorted-set pops just do not wait).
func (o *readOpts) scriptBlock(c *command.Ctx) error {
	if o.block && c.InScript {
		return rerr.Errorf("ERR %s command is not allowed with BLOCK option from scripts", o.name)
	}
	return nil
}

// wait returns what a read of keys with these options waits on: readers
// consume nothing, and only BLOCK waits.
func (o *readOpts) wait(keys [][]byte) command.Wait {
	return command.Wait{Keys: keys, For: o.timeout, Reader: true, NoWait: !o.block}
}

// parse reads COUNT n or BLOCK ms at args[i] and returns the next index,
// or i when the option has no value.
func (o *readOpts) parse(args [][]byte, i int) (int, error) {
	if i+1 >= len(args) {
		return i, nil
	}
	if command.Is(args[i], "count") {
		n, err := command.Int(args[i+1])
		if err != nil {
			return i, err
		}
		o.count = max(n, 0)
		return i + 2, nil
	}
	d, err := blockTimeout(args[i+1])
	if err != nil {
		return i, err
	}
	o.block, o.timeout = true, d
	return i + 2, nil
}

// streamsKeys locates XREAD's and XREADGROUP's keys: the first half of the
// arguments after STREAMS.
func streamsKeys(args [][]byte) []int {
	for i := 1; i < len(args); i++ {
		if command.Is(args[i], "streams") {
			n := (len(args) - i - 1) / 2
			out := make([]int, 0, n)
			for k := i + 1; k <= i+n; k++ {
				out = append(out, k)
			}
			return out
		}
	}
	return nil
}

func parseXRead(args [][]byte) (command.Runner, error) {
	x := &xread{readOpts: readOpts{name: string(args[0])}}
	i := 1
	for ; i < len(args); i++ {
		switch {
		case command.Is(args[i], "count") || command.Is(args[i], "block"):
			next, err := x.readOpts.parse(args, i)
			if err != nil {
				return nil, err
			}
			if next == i {
				return nil, rerr.ErrSyntax
			}
			i = next - 1
		case command.Is(args[i], "streams"):
			rest := args[i+1:]
			if len(rest) == 0 || len(rest)%2 != 0 {
				return nil, rerr.Errorf("ERR Unbalanced XREAD list of streams: for each stream key an ID or '$' must be specified.")
			}
			n := len(rest) / 2
			x.Wait = x.wait(rest[:n])
			var err error
			x.ids, x.last, err = streamIDs(rest[n:], "$", ">",
				rerr.Errorf("ERR The > ID can be specified only when calling XREADGROUP using the GROUP <group> <consumer> option."))
			if err != nil {
				return nil, err
			}
			return x, nil
		default:
			return nil, rerr.ErrSyntax
		}
	}
	return nil, rerr.ErrSyntax
}

// blockTimeout parses BLOCK's milliseconds.
func blockTimeout(b []byte) (time.Duration, error) {
	n, err := command.Int(b)
	if err != nil {
		return 0, rerr.Errorf("ERR timeout is not an integer or out of range")
	}
	if n < 0 {
		return 0, rerr.Errorf("ERR timeout is negative")
	}
	return time.Duration(min(n, math.MaxInt64/int64(time.Millisecond))) * time.Millisecond, nil
}

// Run reads every stream; with nothing and BLOCK it asks to wait. "$" is
// resolved here, on the first attempt, and kept for the wait.
func (x *xread) Run(c *command.Ctx) error {
	if err := x.scriptBlock(c); err != nil {
		return err
	}
	type found struct {
		key []byte
		es  []rstream.Entry
	}
	var out []found
	for i, key := range x.Keys {
		s, err := rstream.Open(c.Tx, key, false)
		if err != nil {
			return err
		}
		if x.last[i] {
			if s != nil {
				x.ids[i] = s.Meta().LastID
			}
			x.last[i] = false
			continue
		}
		if s == nil || x.ids[i] == rstream.MaxID {
			continue
		}
		es, err := s.Range(incr(x.ids[i]), rstream.MaxID, false, x.count)
		if err != nil {
			return err
		}
		if len(es) > 0 {
			out = append(out, found{key, es})
		}
	}
	if len(out) == 0 {
		if x.block {
			return command.ErrWouldBlock
		}
		c.W.NullArray()
		return nil
	}
	keyedHeader(c, len(out))
	for _, f := range out {
		keyedEntries(c, f.key, f.es)
	}
	return nil
}

// Serve replies with key's entries after the ID the client waits from.
func (x *xread) Serve(c *command.Ctx, key []byte) error {
	for i, k := range x.Keys {
		if string(k) != string(key) {
			continue
		}
		s, err := rstream.Open(c.Tx, key, false)
		if err != nil {
			if errors.Is(err, rerr.ErrWrongType) {
				return command.ErrWouldBlock
			}
			return err
		}
		if s == nil || x.ids[i] == rstream.MaxID {
			return command.ErrWouldBlock
		}
		es, err := s.Range(incr(x.ids[i]), rstream.MaxID, false, x.count)
		if err != nil {
			return err
		}
		if len(es) == 0 {
			return command.ErrWouldBlock
		}
		keyedHeader(c, 1)
		keyedEntries(c, key, es)
		return nil
	}
	return command.ErrWouldBlock
}

// streamIDs parses the IDs after the keys of STREAMS: special ("$" for
// XREAD, ">" for XREADGROUP) is marked in the second result, and wrong
// (the other command's) is refused with wrongErr.
func streamIDs(args [][]byte, special, wrong string, wrongErr error) ([]codec.StreamID, []bool, error) {
	ids, marked := make([]codec.StreamID, 0, len(args)), make([]bool, 0, len(args))
	for _, a := range args {
		switch string(a) {
		case special:
			ids, marked = append(ids, codec.StreamID{}), append(marked, true)
			continue
		case wrong:
			return nil, nil, wrongErr
		}
		id, err := parseID(a, 0, false)
		if err != nil {
			return nil, nil, err
		}
		ids, marked = append(ids, id), append(marked, false)
	}
	return ids, marked, nil
}
