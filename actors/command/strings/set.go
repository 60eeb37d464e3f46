package strings

import (
	"github.com/rekv/rekv/actors/command"
)

// SET key value [NX | XX] [GET] [EX seconds | PX milliseconds |
// EXAT unix-time-seconds | PXAT unix-time-milliseconds | KEEPTTL]
type set struct {
	key, val []byte
	extended
	name string // for errors: set, setex, psetex
}

func parseSet(args [][]byte) (command.Runner, error) {
	if len(args) == 3 {
		return setPlain{kv: (*[2][]byte)(args[1:])}, nil
	}
	o, err := parseExtended(args[3:], true, "set")
	if err != nil {
		return nil, err
	}
	return set{key: args[1], val: args[2], extended: o, name: "set"}, nil
}

func (s set) Run(c *command.Ctx) error {
	var expireAt int64
	if s.exp.set {
		var err error
		if expireAt, err = s.exp.at(s.name, c.Now); err != nil {
			return err
		}
	}
	var old []byte
	var found bool
	var err error
	if s.get {
		old, found, err = c.Tx.GetString(s.key)
	} else if s.nx || s.xx {
		found, err = c.Tx.Exists(s.key)
	}
	if err != nil {
		return err
	}
	if s.nx && found || s.xx && !found {
		s.replyOld(c, old, found, false)
		return nil
	}
	if s.keepTTL {
		err = c.Tx.SetStringKeepTTL(s.key, s.val)
	} else {
		err = c.Tx.SetString(s.key, s.val, expireAt)
	}
	if err != nil {
		return err
	}
	if s.exp.set && c.Effects() {
		// A replica gets the absolute expiry (Redis 7.0's SET ... PXAT).
		c.Effect([]byte("SET"), s.key, s.val, []byte("PXAT"), command.Itoa(expireAt))
	}
	s.replyOld(c, old, found, true)
	return nil
}

func (s set) replyOld(c *command.Ctx, old []byte, found, done bool) {
	switch {
	case s.get && found:
		c.W.Bulk(old)
	case s.get, !done:
		c.W.Null()
	default:
		c.W.OK()
	}
}

// setPlain is SET key value without options. It holds its key and value
// by one pointer into the command line: an interface holds that without
// an allocation per SET, where set (its options beside) takes one.
type setPlain struct{ kv *[2][]byte }

func (s setPlain) Run(c *command.Ctx) error {
	if err := c.Tx.SetString(s.kv[0], s.kv[1], 0); err != nil {
		return err
	}
	c.W.OK()
	return nil
}
