package stream

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rstream"
	"github.com/rekv/rekv/codec"
)

// XAUTOCLAIM key group consumer min-idle-time start [COUNT count]
// [JUSTID]: claims up to count pending entries from start on that are idle
// enough; replies [next start, claimed, deleted IDs] (entries deleted from
// the stream leave the pending list).
type xautoclaim struct {
	key, group, consumer []byte
	minIdle              int64
	start                codec.StreamID
	count                int64
	justID               bool
}

func parseXAutoClaim(args [][]byte) (command.Runner, error) {
	x := &xautoclaim{key: args[1], group: args[2], consumer: args[3], count: 100}
	n, err := command.Int(args[4])
	if err != nil {
		return nil, rerr.Errorf("ERR Invalid min-idle-time argument for XAUTOCLAIM")
	}
	x.minIdle = max(n, 0)
	if x.start, err = parseRangeID(args[5], true); err != nil {
		return nil, err
	}
	for i := 6; i < len(args); i++ {
		switch {
		case command.Is(args[i], "count") && i+1 < len(args):
			i++
			n, err := command.Int(args[i])
			if err != nil {
				return nil, err
			}
			if n < 1 || n > 1<<52 {
				return nil, rerr.Errorf("ERR COUNT must be > 0")
			}
			x.count = n
		case command.Is(args[i], "justid"):
			x.justID = true
		default:
			return nil, rerr.ErrSyntax
		}
	}
	return x, nil
}

func (x *xautoclaim) Run(c *command.Ctx) error {
	s, g, err := claimGroup(c, x.key, x.group)
	if err != nil {
		return err
	}
	cl := claimer{s: s, g: &g, consumer: x.consumer, now: c.Now, lastID: g.LastDelivered}
	if err := cl.start(c, x.key); err != nil {
		return err
	}
	// Like Redis, look at up to 10 x count pending entries per call.
	ps, err := s.PendingRange(x.group, x.start, rstream.MaxID, x.count*10+1)
	if err != nil {
		return err
	}
	next := codec.StreamID{}
	var claimed []rstream.Entry
	var ids, deleted []codec.StreamID
	attempts := x.count * 10
	for i, p := range ps {
		// COUNT bounds the entries claimed and those found deleted
		// together, as Redis's count-- for both.
		if int64(len(ids)+len(deleted)) == x.count || int64(i) == attempts {
			next = p.ID
			break
		}
		if c.Now-p.DeliveredMs < x.minIdle {
			continue
		}
		e, exists, err := s.Entry(p.ID)
		if err != nil {
			return err
		}
		if !exists {
			if err := cl.drop(p); err != nil {
				return err
			}
			deleted = append(deleted, p.ID)
			continue
		}
		deliveries := p.Deliveries
		if !x.justID {
			deliveries++
		}
		if err := cl.take(p, true, c.Now, deliveries); err != nil {
			return err
		}
		claimed, ids = append(claimed, e), append(ids, p.ID)
	}
	if err := cl.finish(); err != nil {
		return err
	}
	c.W.Array(3)
	c.W.BulkString(formatID(next))
	if x.justID {
		c.W.Array(len(ids))
		for _, id := range ids {
			c.W.BulkString(formatID(id))
		}
	} else {
		writeEntries(c, claimed)
	}
	c.W.Array(len(deleted))
	for _, id := range deleted {
		c.W.BulkString(formatID(id))
	}
	return nil
}
