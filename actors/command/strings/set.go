package strings

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// SET key value [NX | XX] [GET] [EX seconds | PX milliseconds |
// EXAT unix-time-seconds | PXAT unix-time-milliseconds | KEEPTTL]
type set struct {
	key, val []byte
	nx, xx   bool
	get      bool
	keepTTL  bool
	exp      expiry
	name     string // for errors: set, setex, psetex
}

func parseSet(args [][]byte) (command.Runner, error) {
	s := set{key: args[1], val: args[2], name: "set"}
	var ex, px, exat, pxat bool
	var expArg []byte
	for j := 3; j < len(args); j++ {
		opt := args[j]
		hasNext := j+1 < len(args)
		switch {
		case command.Is(opt, "nx") && !s.xx:
			s.nx = true
		case command.Is(opt, "xx") && !s.nx:
			s.xx = true
		case command.Is(opt, "get"):
			s.get = true
		case command.Is(opt, "keepttl") && !ex && !px && !exat && !pxat:
			s.keepTTL = true
		case command.Is(opt, "ex") && !s.keepTTL && !px && !exat && !pxat && hasNext:
			ex, expArg = true, args[j+1]
			j++
		case command.Is(opt, "px") && !s.keepTTL && !ex && !exat && !pxat && hasNext:
			px, expArg = true, args[j+1]
			j++
		case command.Is(opt, "exat") && !s.keepTTL && !ex && !px && !pxat && hasNext:
			exat, expArg = true, args[j+1]
			j++
		case command.Is(opt, "pxat") && !s.keepTTL && !ex && !px && !exat && hasNext:
			pxat, expArg = true, args[j+1]
			j++
		default:
			return nil, rerr.ErrSyntax
		}
	}
	if expArg != nil {
		var err error
		if s.exp, err = parseExpiry("set", expArg, ex || exat, exat || pxat); err != nil {
			return nil, err
		}
	}
	return s, nil
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
	if s.get {
		var err error
		if old, found, err = c.Tx.GetString(s.key); err != nil {
			return err
		}
	} else if s.nx || s.xx || s.keepTTL {
		var err error
		if found, err = c.Tx.Exists(s.key); err != nil {
			return err
		}
	}
	if s.nx && found || s.xx && !found {
		s.replyOld(c, old, found, false)
		return nil
	}
	if s.keepTTL {
		m, ok, err := c.Tx.Meta(s.key)
		if err != nil {
			return err
		}
		if ok {
			expireAt = m.ExpireAt
		}
	}
	if err := c.Tx.SetString(s.key, s.val, expireAt); err != nil {
		return err
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
