package hll

import (
	"strings"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rhll"
)

// PFDEBUG <GETREG | DECODE | ENCODING | TODENSE> key: Redis's debugging
// view of an HLL (Redis's admin command): its 16384 registers (GETREG,
// which makes a sparse HLL dense, as Redis does), a sparse one's opcodes
// (DECODE), its encoding, or a conversion to dense (TODENSE: 1 if it
// converted).
type pfdebug struct {
	sub, name string // lower case; as given (errors)
	key       []byte
}

func parsePFDebug(args [][]byte) (command.Runner, error) {
	return pfdebug{sub: strings.ToLower(string(args[1])), name: string(args[1]), key: args[2]}, nil
}

func (x pfdebug) Run(c *command.Ctx) error {
	h, ok, err := load(c, x.key)
	if err != nil {
		return replyErr(err)
	}
	if !ok {
		return rerr.Errorf("ERR The specified key does not exist")
	}
	sparse := rhll.IsSparse(h.v)
	toDense := func() error {
		d, err := rhll.ToDense(h.v)
		if err != nil {
			return replyErr(err)
		}
		h.v = d
		return h.save(c, x.key, false)
	}
	switch x.sub {
	case "getreg":
		if sparse {
			if err := toDense(); err != nil {
				return err
			}
		}
		regs := rhll.DenseRegisters(h.v)
		c.W.Array(len(regs))
		for _, r := range regs {
			c.W.Int(int64(r))
		}
	case "decode":
		if !sparse {
			return rerr.Errorf("ERR HLL encoding is not sparse")
		}
		s, err := rhll.Decode(h.v)
		if err != nil {
			return replyErr(err)
		}
		c.W.BulkString(s)
	case "encoding":
		if sparse {
			c.W.Simple("sparse")
		} else {
			c.W.Simple("dense")
		}
	case "todense":
		if sparse {
			if err := toDense(); err != nil {
				return err
			}
		}
		c.W.Int(b2i(sparse))
	default:
		return rerr.Errorf("ERR Unknown PFDEBUG subcommand '%s'", x.name)
	}
	return nil
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
