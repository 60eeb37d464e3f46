package hash

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rhash"
)

// HSETEX key [FNX | FXX] [EX seconds | PX ms | EXAT unix-seconds |
// PXAT unix-ms | KEEPTTL] FIELDS numfields field value... (Redis 8.0):
// sets the fields (all, or none when FNX finds one or FXX misses one) and
// gives them the expiry; answers 1, or 0 when nothing was set. Without an
// expiry option the fields lose their TTLs, with KEEPTTL they keep them.
type hsetex struct {
	key      []byte
	fnx, fxx bool
	when     expiry
	expire   bool
	keepTTL  bool
	pairs    [][]byte
}

func parseHSetEx(args [][]byte) (command.Runner, error) {
	h := hsetex{key: args[1]}
	for i := 2; i < len(args); i++ {
		a := args[i]
		switch {
		case command.Is(a, "fields"):
			if i >= len(args)-3 {
				return nil, rerr.ErrArity("hsetex")
			}
			n, err := command.Int(args[i+1])
			if err != nil || n < 1 || n > 1<<31-1 {
				return nil, rerr.Errorf("ERR invalid number of fields")
			}
			rest := len(args) - i - 2
			if rest%2 != 0 || n != int64(rest/2) {
				return nil, rerr.ErrArity("hsetex")
			}
			h.pairs = args[i+2:]
			return h, nil
		case command.Is(a, "ex"), command.Is(a, "px"), command.Is(a, "exat"), command.Is(a, "pxat"):
			if h.expire || h.keepTTL {
				return nil, rerr.Errorf("ERR Only one of EX, PX, EXAT, PXAT or KEEPTTL arguments can be specified")
			}
			if i >= len(args)-1 {
				return nil, rerr.Errorf("ERR missing expire time")
			}
			seconds := command.Is(a, "ex") || command.Is(a, "exat")
			relative := command.Is(a, "ex") || command.Is(a, "px")
			i++
			var err error
			if h.when, err = parseExpiry("hsetex", args[i], seconds, relative); err != nil {
				return nil, err
			}
			h.expire = true
		case command.Is(a, "keepttl"):
			if h.expire || h.keepTTL {
				return nil, rerr.Errorf("ERR Only one of EX, PX, EXAT, PXAT or KEEPTTL arguments can be specified")
			}
			h.keepTTL = true
		case command.Is(a, "fxx"), command.Is(a, "fnx"):
			if h.fxx || h.fnx {
				return nil, rerr.Errorf("ERR Only one of FXX or FNX arguments can be specified")
			}
			h.fxx, h.fnx = command.Is(a, "fxx"), command.Is(a, "fnx")
		default:
			return nil, rerr.Errorf("ERR unknown argument: %s", a)
		}
	}
	return nil, rerr.ErrSyntax
}

func (h hsetex) Run(c *command.Ctx) error {
	var at int64
	if h.expire {
		var err error
		if at, err = h.when.check("hsetex", c.Now); err != nil {
			return err
		}
	}
	// A missing hash opens empty: FXX then finds its first field missing.
	coll, err := rhash.Open(c.Tx, h.key, true)
	if err != nil {
		return err
	}
	if h.fnx || h.fxx {
		for i := 0; i < len(h.pairs); i += 2 {
			ok, err := coll.Has(h.pairs[i])
			if err != nil {
				return err
			}
			if h.fnx && ok || h.fxx && !ok {
				c.W.Int(0)
				return nil
			}
		}
	}
	if h.expire || h.keepTTL {
		_, err = rhash.SetKeepTTL(coll, h.pairs, c.EncodingLimits().Hash)
	} else {
		_, err = rhash.Set(coll, h.pairs, c.EncodingLimits().Hash)
	}
	if err != nil {
		return err
	}
	c.Tx.AddNote(uint16(command.NotifyHash), "hset", h.key)
	if h.expire {
		deleted := false
		for i := 0; i < len(h.pairs); i += 2 {
			f := h.pairs[i]
			if at <= c.Now {
				n, err := rhash.Delete(coll, [][]byte{f})
				if err != nil {
					return err
				}
				deleted = deleted || n > 0
			} else if err := coll.SetFieldTTL(f, at); err != nil {
				return err
			}
		}
		if deleted {
			c.Tx.AddNote(uint16(command.NotifyHash), "hdel", h.key)
		} else {
			c.Tx.AddNote(uint16(command.NotifyHash), "hexpire", h.key)
		}
		h.effect(c, at)
	}
	c.W.Int(1)
	return nil
}

// effect records the fields set with an absolute expiry (PXAT), whatever
// the command's own form: a replica behind does not extend them; with an
// expiry already past, the fields are gone (HDEL).
func (h hsetex) effect(c *command.Ctx, at int64) {
	if !c.Effects() {
		return
	}
	n := command.Itoa(int64(len(h.pairs) / 2))
	if at > c.Now {
		c.Effect(append([][]byte{[]byte("HSETEX"), h.key, []byte("PXAT"), command.Itoa(at), []byte("FIELDS"), n}, h.pairs...)...)
		return
	}
	fields := make([][]byte, 0, len(h.pairs)/2)
	for i := 0; i < len(h.pairs); i += 2 {
		fields = append(fields, h.pairs[i])
	}
	fieldTTLEffect(c, h.key, at, nil, fields)
}
