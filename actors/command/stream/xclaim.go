package stream

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rstream"
	"github.com/rekv/rekv/codec"
)

// XCLAIM key group consumer min-idle-time id [id ...] [IDLE ms]
// [TIME unix-ms] [RETRYCOUNT count] [FORCE] [JUSTID] [LASTID id]: moves
// pending entries idle at least min-idle-time to consumer. Entries deleted
// from the stream leave the pending list and are not returned.
type xclaim struct {
	key, group, consumer []byte
	minIdle              int64
	ids                  []codec.StreamID
	deliveredMs          int64 // -1: now
	retry                int64 // -1: unchanged (+1 unless JUSTID)
	force, justID        bool
	lastID               *codec.StreamID
}

func parseXClaim(args [][]byte) (command.Runner, error) {
	x := &xclaim{key: args[1], group: args[2], consumer: args[3], deliveredMs: -1, retry: -1}
	n, err := command.Int(args[4])
	if err != nil {
		return nil, rerr.Errorf("ERR Invalid min-idle-time argument for XCLAIM")
	}
	x.minIdle = max(n, 0)
	i := 5
	for ; i < len(args); i++ {
		id, err := parseID(args[i], 0, false)
		if err != nil {
			break
		}
		x.ids = append(x.ids, id)
	}
	for ; i < len(args); i++ {
		switch {
		case command.Is(args[i], "force"):
			x.force = true
		case command.Is(args[i], "justid"):
			x.justID = true
		case i+1 < len(args) && (command.Is(args[i], "idle") || command.Is(args[i], "time") || command.Is(args[i], "retrycount")):
			v, err := command.Int(args[i+1])
			if err != nil {
				return nil, rerr.Errorf("ERR Invalid %s option argument for XCLAIM", upper(args[i]))
			}
			switch {
			case command.Is(args[i], "idle"):
				x.deliveredMs = -2 - max(v, 0) // resolved against the clock in Run
			case command.Is(args[i], "time"):
				x.deliveredMs = max(v, 0)
			default:
				x.retry = max(v, 0)
			}
			i++
		case command.Is(args[i], "lastid") && i+1 < len(args):
			id, err := parseID(args[i+1], 0, false)
			if err != nil {
				return nil, err
			}
			x.lastID = &id
			i++
		default:
			return nil, rerr.Errorf("ERR Unrecognized XCLAIM option '%s'", args[i])
		}
	}
	return x, nil
}

func upper(b []byte) string {
	out := make([]byte, len(b))
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		out[i] = c
	}
	return string(out)
}

func (x *xclaim) Run(c *command.Ctx) error {
	s, g, err := claimGroup(c, x.key, x.group)
	if err != nil {
		return err
	}
	delivered := c.Now
	switch {
	case x.deliveredMs >= 0:
		delivered = x.deliveredMs
	case x.deliveredMs < -1:
		delivered = c.Now - (-2 - x.deliveredMs)
	}
	was := g.LastDelivered
	if x.lastID != nil && g.LastDelivered.Less(*x.lastID) {
		g.LastDelivered = *x.lastID
	}
	cl := claimer{s: s, g: &g, consumer: x.consumer, now: c.Now, lastID: was}
	if err := cl.start(c, x.key); err != nil {
		return err
	}
	var claimed []rstream.Entry
	var ids []codec.StreamID
	for _, id := range x.ids {
		p, ok, err := s.Pending(x.group, id)
		if err != nil {
			return err
		}
		e, exists, err := s.Entry(id)
		if err != nil {
			return err
		}
		if !ok {
			if !x.force || !exists {
				continue
			}
			p = rstream.PendingEntry{ID: id}
		} else if c.Now-p.DeliveredMs < x.minIdle {
			continue
		}
		if !exists {
			if ok {
				if err := cl.drop(p); err != nil {
					return err
				}
			}
			continue
		}
		deliveries := p.Deliveries
		switch {
		case x.retry >= 0:
			deliveries = x.retry
		case !x.justID:
			deliveries++
		}
		if err := cl.take(p, ok, delivered, deliveries); err != nil {
			return err
		}
		claimed, ids = append(claimed, e), append(ids, id)
	}
	if err := cl.finish(); err != nil {
		return err
	}
	if x.justID {
		c.W.Array(len(ids))
		for _, id := range ids {
			c.W.BulkString(formatID(id))
		}
		return nil
	}
	writeEntries(c, claimed)
	return nil
}

// claimGroup opens the stream and group XCLAIM and XAUTOCLAIM work on.
func claimGroup(c *command.Ctx, key, group []byte) (*rstream.Stream, rstream.Group, error) {
	s, err := rstream.Open(c.Tx, key, false)
	if err != nil {
		return nil, rstream.Group{}, err
	}
	var g rstream.Group
	ok := false
	if s != nil {
		if g, ok, err = s.Group(group); err != nil {
			return nil, g, err
		}
	}
	if !ok {
		return nil, g, rerr.Errorf("NOGROUP No such key '%s' or consumer group '%s'", key, group)
	}
	return s, g, nil
}

// claimer moves pending entries to one consumer, keeping the group's and
// consumers' counts.
type claimer struct {
	c        *command.Ctx
	key      []byte
	lastID   codec.StreamID // the group's at the start
	s        *rstream.Stream
	g        *rstream.Group
	consumer []byte
	now      int64
	deltas   map[string]int64
}

func (cl *claimer) start(c *command.Ctx, key []byte) error {
	cl.deltas = map[string]int64{}
	cl.c, cl.key = c, key
	_, created, err := touchConsumer(cl.s, cl.g.Name, cl.consumer, cl.now)
	if created {
		c.Tx.AddNote(uint16(command.NotifyStream), "xgroup-createconsumer", key)
		consumerEffect(c, key, cl.g.Name, cl.consumer)
	} else {
		c.NoEffect() // the consumer's seen time is this node's
	}
	return err
}

func (cl *claimer) take(p rstream.PendingEntry, existed bool, delivered, deliveries int64) error {
	var prev []byte
	if existed {
		prev = p.Consumer
		cl.deltas[string(p.Consumer)]--
	} else {
		cl.g.Pending++
	}
	cl.deltas[string(cl.consumer)]++
	p.Consumer, p.DeliveredMs, p.Deliveries = cl.consumer, delivered, deliveries
	claimEffect(cl.c, cl.key, cl.g.Name, cl.consumer, p.ID, delivered, deliveries)
	return cl.s.PutPending(cl.g.Name, p, prev)
}

func (cl *claimer) drop(p rstream.PendingEntry) error {
	cl.deltas[string(p.Consumer)]--
	cl.g.Pending--
	ackEffect(cl.c, cl.key, cl.g.Name, p.ID)
	return cl.s.Ack(cl.g.Name, p)
}

func (cl *claimer) finish() error {
	for name, d := range cl.deltas {
		if d != 0 {
			if err := moveCount(cl.s, cl.g.Name, []byte(name), d); err != nil {
				return err
			}
		}
	}
	if cl.g.LastDelivered != cl.lastID {
		groupEffect(cl.c, cl.key, *cl.g)
	}
	return cl.s.PutGroup(*cl.g)
}
