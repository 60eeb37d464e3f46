package keys

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/codec/rdb"
)

// RESTORE key ttl serialized-value [REPLACE] [ABSTTL] [IDLETIME seconds]
// [FREQ frequency]. IDLETIME and FREQ are checked and otherwise ignored:
// rekv keeps no access clock or counter.
type restoreCmd struct {
	key, ttl, payload []byte
	replace, absTTL   bool
}

var (
	errBusyKey     = &rerr.Error{Msg: "BUSYKEY Target key name already exists."}
	errBadPayload  = &rerr.Error{Msg: "ERR DUMP payload version or checksum are wrong"}
	errBadFormat   = &rerr.Error{Msg: "ERR Bad data format"}
	errBadTTL      = &rerr.Error{Msg: "ERR Invalid TTL value, must be >= 0"}
	errBadIdleTime = &rerr.Error{Msg: "ERR Invalid IDLETIME value, must be >= 0"}
	errBadFreq     = &rerr.Error{Msg: "ERR Invalid FREQ value, must be >= 0 and <= 255"}
)

func parseRestore(args [][]byte) (command.Runner, error) {
	r := restoreCmd{key: args[1], ttl: args[2], payload: args[3]}
	idle, freq := false, false
	for j := 4; j < len(args); j++ {
		more := len(args) - j - 1
		switch a := args[j]; {
		case command.Is(a, "replace"):
			r.replace = true
		case command.Is(a, "absttl"):
			r.absTTL = true
		case command.Is(a, "idletime") && more >= 1 && !freq:
			n, err := command.Int(args[j+1])
			if err != nil {
				return nil, err
			}
			if n < 0 {
				return nil, errBadIdleTime
			}
			idle = true
			j++
		case command.Is(a, "freq") && more >= 1 && !idle:
			n, err := command.Int(args[j+1])
			if err != nil {
				return nil, err
			}
			if n < 0 || n > 255 {
				return nil, errBadFreq
			}
			freq = true
			j++
		default:
			return nil, rerr.ErrSyntax
		}
	}
	return r, nil
}

func (r restoreCmd) Run(c *command.Ctx) error {
	if !r.replace {
		if ok, err := c.Tx.Exists(r.key); err != nil || ok {
			if err == nil {
				err = errBusyKey
			}
			return err
		}
	}
	ttl, err := command.Int(r.ttl)
	if err != nil {
		return err
	}
	if ttl < 0 {
		return errBadTTL
	}
	body, err := rdb.Verify(r.payload)
	if err != nil {
		return errBadPayload
	}
	v, err := rdb.Decode(body)
	if err != nil {
		return errBadFormat
	}
	expireAt := int64(0)
	if ttl > 0 {
		expireAt = ttl
		if !r.absTTL {
			expireAt += c.Now
		}
	}
	if expireAt != 0 && expireAt <= c.Now {
		// Already expired: the key ends up deleted (a replaced key too).
		_, err := c.Tx.Delete(r.key)
		if err == nil {
			c.W.OK()
		}
		return err
	}
	if err := c.Tx.SetString(r.key, v.String, expireAt); err != nil {
		return err
	}
	c.W.OK()
	return nil
}

// restoreEvent: "restore" on the key, or the generic "del" when an
// already expired TTL deleted it.
func restoreEvent(_ int, gone bool) string {
	if gone {
		return ""
	}
	return "restore"
}
