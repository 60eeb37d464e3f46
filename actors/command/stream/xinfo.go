package stream

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rstream"
	"github.com/rekv/rekv/codec"
)

// XINFO STREAM key [FULL [COUNT count]], XINFO GROUPS key, XINFO CONSUMERS
// key group. radix-tree-keys and radix-tree-nodes are those of Redis's
// internal tree (rstream.Stream.Tree).
type xinfoStream struct {
	key   []byte
	full  bool
	count int64 // FULL: entries and pending per group/consumer; 0: all
}

func parseXInfoStream(args [][]byte) (command.Runner, error) {
	x := &xinfoStream{key: args[2], count: 10}
	rest := args[3:]
	if len(rest) > 0 {
		if !command.Is(rest[0], "full") {
			return nil, rerr.Errorf("ERR unknown subcommand or wrong number of arguments for '%s'. Try XINFO HELP.", args[1])
		}
		x.full = true
		rest = rest[1:]
	}
	if len(rest) > 0 {
		if len(rest) != 2 || !command.Is(rest[0], "count") {
			return nil, rerr.ErrSyntax
		}
		n, err := command.Int(rest[1])
		if err != nil {
			return nil, err
		}
		x.count = max(n, 0)
	}
	return x, nil
}

func openInfo(c *command.Ctx, key []byte) (*rstream.Stream, error) {
	s, err := rstream.Open(c.Tx, key, false)
	if err == nil && s == nil {
		err = rerr.ErrNoSuchKey
	}
	return s, err
}

func (x *xinfoStream) Run(c *command.Ctx) error {
	s, err := openInfo(c, x.key)
	if err != nil {
		return err
	}
	m := s.Meta()
	groups, err := s.Groups()
	if err != nil {
		return err
	}
	first, hasFirst, err := s.First(false)
	if err != nil {
		return err
	}
	last, _, err := s.First(true)
	if err != nil {
		return err
	}
	keys, nodes, err := s.Tree()
	if err != nil {
		return err
	}
	n := 10
	if x.full {
		n = 9
	}
	c.W.Map(n)
	c.W.BulkString("length")
	c.W.Int(s.Len())
	c.W.BulkString("radix-tree-keys")
	c.W.Int(keys)
	c.W.BulkString("radix-tree-nodes")
	c.W.Int(nodes)
	c.W.BulkString("last-generated-id")
	c.W.BulkString(formatID(m.LastID))
	c.W.BulkString("max-deleted-entry-id")
	c.W.BulkString(formatID(m.MaxDeletedID))
	c.W.BulkString("entries-added")
	c.W.Int(int64(m.EntriesAdded))
	c.W.BulkString("recorded-first-entry-id")
	if hasFirst {
		c.W.BulkString(formatID(first.ID))
	} else {
		c.W.BulkString("0-0")
	}
	if !x.full {
		c.W.BulkString("groups")
		c.W.Int(int64(len(groups)))
		for _, e := range []struct {
			name string
			e    rstream.Entry
		}{{"first-entry", first}, {"last-entry", last}} {
			c.W.BulkString(e.name)
			if !hasFirst {
				c.W.Null()
				continue
			}
			writeEntry(c, e.e)
		}
		return nil
	}
	es, err := s.Range(codec.StreamID{}, rstream.MaxID, false, x.count)
	if err != nil {
		return err
	}
	c.W.BulkString("entries")
	writeEntries(c, es)
	c.W.BulkString("groups")
	c.W.Array(len(groups))
	for _, g := range groups {
		if err := x.fullGroup(c, s, g); err != nil {
			return err
		}
	}
	return nil
}

func writeEntry(c *command.Ctx, e rstream.Entry) {
	c.W.Array(2)
	c.W.BulkString(formatID(e.ID))
	c.W.Array(len(e.Fields))
	for _, f := range e.Fields {
		c.W.Bulk(f)
	}
}

func (x *xinfoStream) fullGroup(c *command.Ctx, s *rstream.Stream, g rstream.Group) error {
	ps, err := s.PendingRange(g.Name, codec.StreamID{}, rstream.MaxID, x.count)
	if err != nil {
		return err
	}
	cons, err := s.Consumers(g.Name)
	if err != nil {
		return err
	}
	c.W.Map(7)
	c.W.BulkString("name")
	c.W.Bulk(g.Name)
	c.W.BulkString("last-delivered-id")
	c.W.BulkString(formatID(g.LastDelivered))
	if err := writeReadAndLag(c, s, g); err != nil {
		return err
	}
	c.W.BulkString("pel-count")
	c.W.Int(g.Pending)
	c.W.BulkString("pending")
	c.W.Array(len(ps))
	for _, p := range ps {
		c.W.Array(4)
		c.W.BulkString(formatID(p.ID))
		c.W.Bulk(p.Consumer)
		c.W.Int(p.DeliveredMs)
		c.W.Int(p.Deliveries)
	}
	c.W.BulkString("consumers")
	c.W.Array(len(cons))
	for _, cn := range cons {
		ids, err := s.OwnerPending(g.Name, cn.Name, codec.StreamID{}, rstream.MaxID, x.count)
		if err != nil {
			return err
		}
		c.W.Map(4)
		c.W.BulkString("name")
		c.W.Bulk(cn.Name)
		c.W.BulkString("seen-time")
		c.W.Int(cn.SeenMs)
		c.W.BulkString("pel-count")
		c.W.Int(cn.Pending)
		c.W.BulkString("pending")
		c.W.Array(len(ids))
		for _, id := range ids {
			p, _, err := s.Pending(g.Name, id)
			if err != nil {
				return err
			}
			c.W.Array(3)
			c.W.BulkString(formatID(id))
			c.W.Int(p.DeliveredMs)
			c.W.Int(p.Deliveries)
		}
	}
	return nil
}

// writeReadAndLag writes a group's entries-read and lag fields.
func writeReadAndLag(c *command.Ctx, s *rstream.Stream, g rstream.Group) error {
	c.W.BulkString("entries-read")
	if g.EntriesRead >= 0 {
		c.W.Int(g.EntriesRead)
	} else {
		c.W.Null()
	}
	c.W.BulkString("lag")
	l, ok, err := lag(s, g)
	if err != nil {
		return err
	}
	if ok {
		c.W.Int(l)
	} else {
		c.W.Null()
	}
	return nil
}

// XINFO GROUPS key
type xinfoGroups struct{ key []byte }

func parseXInfoGroups(args [][]byte) (command.Runner, error) { return xinfoGroups{args[2]}, nil }

func (x xinfoGroups) Run(c *command.Ctx) error {
	s, err := openInfo(c, x.key)
	if err != nil {
		return err
	}
	groups, err := s.Groups()
	if err != nil {
		return err
	}
	c.W.Array(len(groups))
	for _, g := range groups {
		cons, err := s.Consumers(g.Name)
		if err != nil {
			return err
		}
		c.W.Map(6)
		c.W.BulkString("name")
		c.W.Bulk(g.Name)
		c.W.BulkString("consumers")
		c.W.Int(int64(len(cons)))
		c.W.BulkString("pending")
		c.W.Int(g.Pending)
		c.W.BulkString("last-delivered-id")
		c.W.BulkString(formatID(g.LastDelivered))
		if err := writeReadAndLag(c, s, g); err != nil {
			return err
		}
	}
	return nil
}

// XINFO CONSUMERS key group
type xinfoConsumers struct{ key, group []byte }

func parseXInfoConsumers(args [][]byte) (command.Runner, error) {
	return xinfoConsumers{args[2], args[3]}, nil
}

func (x xinfoConsumers) Run(c *command.Ctx) error {
	s, err := openInfo(c, x.key)
	if err != nil {
		return err
	}
	if _, ok, err := s.Group(x.group); err != nil {
		return err
	} else if !ok {
		return errNoGroup(x.key, x.group)
	}
	cons, err := s.Consumers(x.group)
	if err != nil {
		return err
	}
	c.W.Array(len(cons))
	for _, cn := range cons {
		c.W.Map(3)
		c.W.BulkString("name")
		c.W.Bulk(cn.Name)
		c.W.BulkString("pending")
		c.W.Int(cn.Pending)
		c.W.BulkString("idle")
		c.W.Int(max(c.Now-cn.SeenMs, 0))
	}
	return nil
}
