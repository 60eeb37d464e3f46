package keys

import (
	"math"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// EXPIRE key seconds [NX | XX | GT | LT], and PEXPIRE, EXPIREAT, PEXPIREAT.
type expire struct {
	name           string
	key            []byte
	when           int64
	absolute       bool
	seconds        bool
	nx, xx, gt, lt bool
}

func expireParser(name string, absolute, seconds bool) func([][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) {
		e := expire{name: name, key: args[1], absolute: absolute, seconds: seconds}
		for _, opt := range args[3:] {
			switch {
			case command.Is(opt, "nx"):
				e.nx = true
			case command.Is(opt, "xx"):
				e.xx = true
			case command.Is(opt, "gt"):
				e.gt = true
			case command.Is(opt, "lt"):
				e.lt = true
			default:
				return nil, rerr.Errorf("ERR Unsupported option %s", opt)
			}
		}
		if e.nx && (e.xx || e.gt || e.lt) {
			return nil, rerr.Errorf("ERR NX and XX, GT or LT options at the same time are not compatible")
		}
		if e.gt && e.lt {
			return nil, rerr.Errorf("ERR GT and LT options at the same time are not compatible")
		}
		var err error
		if e.when, err = command.Int(args[2]); err != nil {
			return nil, err
		}
		if seconds {
			if e.when > math.MaxInt64/1000 || e.when < math.MinInt64/1000 {
				return nil, rerr.ErrInvalidExpire(name)
			}
			e.when *= 1000
		}
		return e, nil
	}
}

func (e expire) Run(c *command.Ctx) error {
	when := e.when
	if !e.absolute {
		if when > math.MaxInt64-c.Now {
			return rerr.ErrInvalidExpire(e.name)
		}
		when += c.Now
	}
	m, ok, err := c.Tx.Meta(e.key)
	if err != nil {
		return err
	}
	if !ok || !e.allowed(m.ExpireAt, when) {
		c.W.Int(0)
		return nil
	}
	if when <= c.Now {
		// Already in the past: the key is deleted, as Redis does.
		if _, err := c.Tx.Delete(e.key); err != nil {
			return err
		}
	} else if _, err := c.Tx.SetExpire(e.key, when); err != nil {
		return err
	}
	c.ExpiryEffect(e.key, when) // absolute, with no condition left to test
	c.W.Int(1)
	return nil
}

// allowed applies NX/XX/GT/LT to the current expiry (0 = none, which GT
// and LT treat as an infinite TTL).
func (e expire) allowed(cur, when int64) bool {
	switch {
	case e.nx && cur != 0, e.xx && cur == 0:
		return false
	case e.gt && (cur == 0 || when <= cur):
		return false
	case e.lt && cur != 0 && when >= cur:
		return false
	}
	return true
}
