package stream

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rstream"
	"github.com/rekv/rekv/codec"
)

// XGROUP CREATE key group id|$ [MKSTREAM] [ENTRIESREAD n] and XGROUP SETID
// key group id|$ [ENTRIESREAD n].
type xgroupSet struct {
	key, group  []byte
	id          codec.StreamID
	last        bool // "$"
	mkStream    bool
	entriesRead int64 // -1: not given
	create      bool
}

func groupSetParser(create bool) func([][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) {
		x := &xgroupSet{key: args[2], group: args[3], entriesRead: -1, create: create}
		if string(args[4]) == "$" {
			x.last = true
		} else {
			id, err := parseID(args[4], 0, !create) // SETID takes "-" and "+", CREATE neither (Redis 7.0)
			if err != nil {
				return nil, err
			}
			x.id = id
		}
		for i := 5; i < len(args); i++ {
			switch {
			case create && command.Is(args[i], "mkstream"):
				x.mkStream = true
			case command.Is(args[i], "entriesread") && i+1 < len(args):
				i++
				n, err := command.Int(args[i])
				if err != nil {
					return nil, err
				}
				if n < 0 && n != -1 {
					return nil, rerr.Errorf("ERR value for ENTRIESREAD must be positive or -1")
				}
				x.entriesRead = n
			default:
				return nil, rerr.Errorf("ERR unknown subcommand or wrong number of arguments for '%s'. Try XGROUP HELP.", args[1])
			}
		}
		return x, nil
	}
}

func (x *xgroupSet) Run(c *command.Ctx) error {
	s, err := rstream.Open(c.Tx, x.key, x.create && x.mkStream)
	if err != nil {
		return err
	}
	if s == nil {
		return errNoKey
	}
	g, exists, err := s.Group(x.group)
	if err != nil {
		return err
	}
	switch {
	case x.create && exists:
		return rerr.Errorf("BUSYGROUP Consumer Group name already exists")
	case !x.create && !exists:
		return errNoGroup(x.key, x.group)
	}
	if x.create {
		g = rstream.Group{Name: x.group}
		if err := s.Create(); err != nil {
			return err
		}
		c.Tx.AddNote(uint16(command.NotifyStream), "xgroup-create", x.key)
	} else {
		c.Tx.AddNote(uint16(command.NotifyStream), "xgroup-setid", x.key)
	}
	g.LastDelivered, g.EntriesRead = x.id, x.entriesRead
	if x.last {
		g.LastDelivered = s.Meta().LastID
	}
	if err := s.PutGroup(g); err != nil {
		return err
	}
	c.W.OK()
	return nil
}

// XGROUP DESTROY key group: 1 if the group existed.
type xgroupDestroy struct{ key, group []byte }

func parseGroupDestroy(args [][]byte) (command.Runner, error) {
	return xgroupDestroy{args[2], args[3]}, nil
}

func (x xgroupDestroy) Run(c *command.Ctx) error {
	s, err := rstream.Open(c.Tx, x.key, false)
	if err != nil {
		return err
	}
	if s == nil {
		return errNoKey
	}
	_, ok, err := s.Group(x.group)
	if err != nil {
		return err
	}
	if !ok {
		c.W.Int(0)
		return nil
	}
	if err := s.DestroyGroup(x.group); err != nil {
		return err
	}
	c.Tx.AddNote(uint16(command.NotifyStream), "xgroup-destroy", x.key)
	c.W.Int(1)
	return nil
}

// XGROUP CREATECONSUMER key group consumer: 1 if created, 0 if it existed.
// XGROUP DELCONSUMER key group consumer: its pending count (deleted with
// it).
type xgroupConsumer struct {
	key, group, name []byte
	del              bool
}

func consumerParser(del bool) func([][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) {
		return xgroupConsumer{args[2], args[3], args[4], del}, nil
	}
}

func (x xgroupConsumer) Run(c *command.Ctx) error {
	s, g, err := openGroup(c, x.key, x.group)
	if err != nil {
		return err
	}
	if x.del {
		n, err := s.DeleteConsumer(&g, x.name)
		if err != nil {
			return err
		}
		c.Tx.AddNote(uint16(command.NotifyStream), "xgroup-delconsumer", x.key)
		c.W.Int(n)
		return nil
	}
	_, ok, err := s.Consumer(x.group, x.name)
	if err != nil {
		return err
	}
	if ok {
		c.W.Int(0)
		return nil
	}
	if err := s.PutConsumer(x.group, rstream.Consumer{Name: x.name, SeenMs: c.Now}); err != nil {
		return err
	}
	c.Tx.AddNote(uint16(command.NotifyStream), "xgroup-createconsumer", x.key)
	c.W.Int(1)
	return nil
}
