package stream

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rstream"
	"github.com/rekv/rekv/codec"
)

// XPENDING key group: [count, smallest ID, greatest ID, [[consumer,
// count]...]]. XPENDING key group [IDLE min-idle] start end count
// [consumer]: [[id, consumer, idle ms, deliveries]...].
type xpending struct {
	key, group []byte
	extended   bool
	minIdle    int64
	start, end codec.StreamID
	count      int64
	consumer   []byte
}

func parseXPending(args [][]byte) (command.Runner, error) {
	x := &xpending{key: args[1], group: args[2]}
	rest := args[3:]
	if len(rest) == 0 {
		return x, nil
	}
	x.extended = true
	if command.Is(rest[0], "idle") {
		if len(rest) < 2 {
			return nil, rerr.ErrSyntax
		}
		n, err := command.Int(rest[1])
		if err != nil {
			return nil, err
		}
		x.minIdle, rest = n, rest[2:]
	}
	if len(rest) != 3 && len(rest) != 4 {
		return nil, rerr.ErrSyntax
	}
	var err error
	if x.start, err = parseRangeID(rest[0], true); err != nil {
		return nil, err
	}
	if x.end, err = parseRangeID(rest[1], false); err != nil {
		return nil, err
	}
	if x.count, err = command.Int(rest[2]); err != nil {
		return nil, err
	}
	if len(rest) == 4 {
		x.consumer = rest[3]
	}
	return x, nil
}

func (x *xpending) Run(c *command.Ctx) error {
	s, err := rstream.Open(c.Tx, x.key, false)
	if err != nil {
		return err
	}
	var g rstream.Group
	ok := false
	if s != nil {
		if g, ok, err = s.Group(x.group); err != nil {
			return err
		}
	}
	if !ok {
		return rerr.Errorf("NOGROUP No such key '%s' or consumer group '%s'", x.key, x.group)
	}
	if !x.extended {
		return x.summary(c, s, g)
	}
	if x.count <= 0 || x.end.Less(x.start) {
		c.W.Array(0)
		return nil
	}
	var ps []rstream.PendingEntry
	if x.consumer != nil {
		ids, err := s.OwnerPending(x.group, x.consumer, x.start, x.end, 0)
		if err != nil {
			return err
		}
		for _, id := range ids {
			p, ok, err := s.Pending(x.group, id)
			if err != nil {
				return err
			}
			if ok && c.Now-p.DeliveredMs >= x.minIdle {
				ps = append(ps, p)
				if int64(len(ps)) == x.count {
					break
				}
			}
		}
	} else {
		all, err := s.PendingRange(x.group, x.start, x.end, 0)
		if err != nil {
			return err
		}
		for _, p := range all {
			if c.Now-p.DeliveredMs >= x.minIdle {
				ps = append(ps, p)
				if int64(len(ps)) == x.count {
					break
				}
			}
		}
	}
	c.W.Array(len(ps))
	for _, p := range ps {
		c.W.Array(4)
		c.W.BulkString(formatID(p.ID))
		c.W.Bulk(p.Consumer)
		c.W.Int(max(c.Now-p.DeliveredMs, 0))
		c.W.Int(p.Deliveries)
	}
	return nil
}

func (x *xpending) summary(c *command.Ctx, s *rstream.Stream, g rstream.Group) error {
	if g.Pending == 0 {
		c.W.Array(4)
		c.W.Int(0)
		c.W.Null()
		c.W.Null()
		c.W.NullArray()
		return nil
	}
	first, err := s.PendingRange(x.group, codec.StreamID{}, rstream.MaxID, 1)
	if err != nil {
		return err
	}
	last, err := s.LastPending(x.group)
	if err != nil {
		return err
	}
	cons, err := s.Consumers(x.group)
	if err != nil {
		return err
	}
	var busy []rstream.Consumer
	for _, cn := range cons {
		if cn.Pending > 0 {
			busy = append(busy, cn)
		}
	}
	c.W.Array(4)
	c.W.Int(g.Pending)
	c.W.BulkString(formatID(first[0].ID))
	c.W.BulkString(formatID(last.ID))
	c.W.Array(len(busy))
	for _, cn := range busy {
		c.W.Array(2)
		c.W.Bulk(cn.Name)
		c.W.BulkString(itoa(cn.Pending))
	}
	return nil
}
