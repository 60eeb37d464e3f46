package stream

import (
	"errors"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rstream"
	"github.com/rekv/rekv/codec"
)

// XREADGROUP GROUP group consumer [COUNT count] [BLOCK ms] [NOACK]
// STREAMS key [key ...] id [id ...]: ">" delivers entries never delivered
// to the group (adding them to the consumer's pending entries unless
// NOACK) and may wait for them with BLOCK; an ID reads the consumer's
// pending entries after it (history: deleted entries come back with a nil
// body), counting a delivery for each.
type xreadgroup struct {
	command.Wait // its Keys are the streams' keys
	readOpts
	group, consumer []byte
	ids             []codec.StreamID
	fresh           []bool // ">"
	noAck           bool
}

func parseXReadGroup(args [][]byte) (command.Runner, error) {
	x := &xreadgroup{readOpts: readOpts{name: string(args[0])}}
	for i := 1; i < len(args); i++ {
		switch {
		case command.Is(args[i], "group") && i+2 < len(args):
			x.group, x.consumer = args[i+1], args[i+2]
			i += 2
		case command.Is(args[i], "count") || command.Is(args[i], "block"):
			next, err := x.readOpts.parse(args, i)
			if err != nil {
				return nil, err
			}
			if next == i {
				return nil, rerr.ErrSyntax
			}
			i = next - 1
		case command.Is(args[i], "noack"):
			x.noAck = true
		case command.Is(args[i], "streams"):
			rest := args[i+1:]
			if len(rest) == 0 || len(rest)%2 != 0 {
				return nil, rerr.Errorf("ERR Unbalanced XREADGROUP list of streams: for each stream key an ID or '$' must be specified.")
			}
			if x.group == nil {
				return nil, rerr.Errorf("ERR Missing GROUP option for XREADGROUP")
			}
			n := len(rest) / 2
			x.Wait = x.wait(rest[:n])
			var err error
			x.ids, x.fresh, err = streamIDs(rest[n:], ">", "$",
				rerr.Errorf("ERR The $ ID is meaningless in the context of XREADGROUP: you want to read the history of this consumer by specifying a proper ID, or use the > ID to get new messages. The $ ID would just return an empty result set."))
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

type groupRead struct {
	key []byte
	es  []rstream.Entry
	ids []codec.StreamID // history: every pending ID, deleted or not
}

func (x *xreadgroup) Run(c *command.Ctx) error {
	if err := x.scriptBlock(c); err != nil {
		return err
	}
	streams := make([]*rstream.Stream, len(x.Keys))
	for i, key := range x.Keys {
		s, err := rstream.Open(c.Tx, key, false)
		if err != nil {
			return err
		}
		if s != nil {
			if _, ok, err := s.Group(x.group); err != nil {
				return err
			} else if !ok {
				s = nil
			}
		}
		if s == nil {
			return rerr.Errorf("NOGROUP No such key '%s' or consumer group '%s' in XREADGROUP with GROUP option", key, x.group)
		}
		streams[i] = s
	}
	var out []groupRead
	history := false
	for i, s := range streams {
		if !x.fresh[i] {
			history = true
			r, err := x.history(c, s, x.Keys[i], x.ids[i])
			if err != nil {
				return err
			}
			out = append(out, r)
			continue
		}
		es, err := x.deliver(c, s, x.Keys[i])
		if err != nil {
			return err
		}
		if len(es) > 0 {
			out = append(out, groupRead{key: x.Keys[i], es: es})
		}
	}
	if len(out) == 0 {
		if x.block && !history {
			return command.ErrWouldBlock
		}
		c.W.NullArray()
		return nil
	}
	x.write(c, out)
	return nil
}

func (x *xreadgroup) write(c *command.Ctx, out []groupRead) {
	keyedHeader(c, len(out))
	for _, r := range out {
		if r.ids == nil {
			keyedEntries(c, r.key, r.es)
			continue
		}
		if c.W.Proto() == 2 {
			c.W.Array(2)
		}
		c.W.Bulk(r.key)
		c.W.Array(len(r.ids))
		j := 0
		for _, id := range r.ids {
			c.W.Array(2)
			c.W.BulkString(formatID(id))
			if j < len(r.es) && r.es[j].ID == id {
				c.W.Array(len(r.es[j].Fields))
				for _, f := range r.es[j].Fields {
					c.W.Bulk(f)
				}
				j++
			} else {
				c.W.NullArray()
			}
		}
	}
}

// deliver hands the group's next undelivered entries to the consumer.
func (x *xreadgroup) deliver(c *command.Ctx, s *rstream.Stream, key []byte) ([]rstream.Entry, error) {
	g, _, err := s.Group(x.group)
	if err != nil {
		return nil, err
	}
	cons, created, err := touchConsumer(s, x.group, x.consumer, c.Now)
	if err != nil {
		return nil, err
	}
	if created {
		c.Tx.AddNote(uint16(command.NotifyStream), "xgroup-createconsumer", key)
		consumerEffect(c, key, x.group, x.consumer)
	} else {
		c.NoEffect() // the consumer's seen time is this node's
	}
	if g.LastDelivered == rstream.MaxID {
		return nil, nil
	}
	es, err := s.Range(incr(g.LastDelivered), rstream.MaxID, false, x.count)
	if err != nil || len(es) == 0 {
		return nil, err
	}
	for _, e := range es {
		if !x.noAck {
			old, had, err := s.Pending(x.group, e.ID)
			if err != nil {
				return nil, err
			}
			p := rstream.PendingEntry{ID: e.ID, Consumer: x.consumer, DeliveredMs: c.Now, Deliveries: 1}
			var prev []byte
			if had {
				prev = old.Consumer
				if err := moveCount(s, x.group, old.Consumer, -1); err != nil {
					return nil, err
				}
			} else {
				g.Pending++
			}
			if err := s.PutPending(x.group, p, prev); err != nil {
				return nil, err
			}
			claimEffect(c, key, x.group, x.consumer, e.ID, c.Now, 1)
			cons.Pending++
		}
		if g.LastDelivered.Less(e.ID) {
			if err := advanceRead(s, &g, e.ID); err != nil {
				return nil, err
			}
			g.LastDelivered = e.ID
		}
	}
	if err := s.PutConsumer(x.group, cons); err != nil {
		return nil, err
	}
	groupEffect(c, key, g)
	return es, s.PutGroup(g)
}

// moveCount changes a consumer's pending count by delta.
func moveCount(s *rstream.Stream, group, consumer []byte, delta int64) error {
	c, ok, err := s.Consumer(group, consumer)
	if err != nil || !ok {
		return err
	}
	c.Pending += delta
	return s.PutConsumer(group, c)
}

// history returns the consumer's pending entries after id, counting a
// delivery for each.
func (x *xreadgroup) history(c *command.Ctx, s *rstream.Stream, key []byte, after codec.StreamID) (groupRead, error) {
	r := groupRead{key: key, ids: []codec.StreamID{}}
	if _, created, err := touchConsumer(s, x.group, x.consumer, c.Now); err != nil {
		return r, err
	} else if created {
		c.Tx.AddNote(uint16(command.NotifyStream), "xgroup-createconsumer", key)
		consumerEffect(c, key, x.group, x.consumer)
	} else {
		c.NoEffect()
	}
	if after == rstream.MaxID {
		return r, nil
	}
	ids, err := s.OwnerPending(x.group, x.consumer, incr(after), rstream.MaxID, x.count)
	if err != nil {
		return r, err
	}
	for _, id := range ids {
		p, ok, err := s.Pending(x.group, id)
		if err != nil {
			return r, err
		}
		if ok {
			p.DeliveredMs, p.Deliveries = c.Now, p.Deliveries+1
			if err := s.PutPending(x.group, p, nil); err != nil {
				return r, err
			}
			claimEffect(c, key, x.group, x.consumer, id, p.DeliveredMs, p.Deliveries)
		}
		r.ids = append(r.ids, id)
		e, ok, err := s.Entry(id)
		if err != nil {
			return r, err
		}
		if ok {
			r.es = append(r.es, e)
		}
	}
	return r, nil
}

// Redis's answers to a client blocked in XREADGROUP whose stream or group
// went away.
var (
	errStreamGone = &rerr.Error{Msg: "UNBLOCKED the stream key no longer exists"}
	errGroupGone  = &rerr.Error{Msg: "NOGROUP the consumer group this client was blocked on no longer exists"}
)

// Serve delivers new entries of key to the waiting consumer.
func (x *xreadgroup) Serve(c *command.Ctx, key []byte) error {
	for i, k := range x.Keys {
		if string(k) != string(key) || !x.fresh[i] {
			continue
		}
		// The key or the group went since the client blocked: Redis
		// tells it (the group existed when it blocked).
		s, err := rstream.Open(c.Tx, key, false)
		if errors.Is(err, rerr.ErrWrongType) || err == nil && s == nil {
			return errStreamGone
		}
		if err != nil {
			return err
		}
		if _, ok, err := s.Group(x.group); err != nil || !ok {
			if err != nil {
				return err
			}
			return errGroupGone
		}
		es, err := x.deliver(c, s, key)
		if err != nil {
			return err
		}
		if len(es) == 0 {
			return command.ErrWouldBlock
		}
		x.write(c, []groupRead{{key: key, es: es}})
		return nil
	}
	return command.ErrWouldBlock
}

var (
	_ command.Blocker = (*xread)(nil)
	_ command.Blocker = (*xreadgroup)(nil)
)
