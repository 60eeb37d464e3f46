package bloom

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// BF.INSERT key [CAPACITY capacity] [ERROR error] [EXPANSION expansion]
// [NOCREATE] [NONSCALING] ITEMS item [item ...]: BF.MADD that creates a
// missing filter with the options given (or refuses, with NOCREATE).
type insert struct {
	key   []byte
	items [][]byte
	opts  insertOpts
}

func parseInsert(args [][]byte) (command.Runner, error) {
	in := insert{key: args[1], opts: insertOpts{create: true, errorRate: defaultError, capacity: defaultCapacity,
		expansion: defaultExpansion}}
	sized := false
	i := 2
	for ; i < len(args); i++ {
		switch a := args[i]; {
		case command.Is(a, "items"):
			in.items = args[i+1:]
			i = len(args)
		case command.Is(a, "capacity"), command.Is(a, "error"), command.Is(a, "expansion"):
			if i+1 == len(args) {
				return nil, rerr.ErrArity("bf.insert")
			}
			v := args[i+1]
			switch {
			case command.Is(a, "capacity"):
				n, err := command.Int(v)
				if err != nil || n < 1 || n > maxCapacity {
					return nil, rerr.Errorf("ERR Bad capacity")
				}
				in.opts.capacity, sized = uint64(n), true
			case command.Is(a, "error"):
				e, ok := command.ParseFloat(v)
				if !ok || !(e > 0 && e < 1) {
					return nil, rerr.Errorf("ERR Bad error rate")
				}
				in.opts.errorRate, sized = e, true
			default:
				x, err := command.Int(v)
				if err != nil || x < 1 || x > 1<<15 {
					return nil, rerr.Errorf("ERR Bad expansion")
				}
				in.opts.expansion = uint32(x)
			}
			i++
		case command.Is(a, "nocreate"):
			in.opts.create = false
		case command.Is(a, "nonscaling"):
			in.opts.nonScaling = true
		default:
			return nil, rerr.Errorf("ERR Unknown argument received")
		}
	}
	if len(in.items) == 0 {
		return nil, rerr.ErrArity("bf.insert")
	}
	if !in.opts.create && sized {
		return nil, rerr.Errorf("ERR NOCREATE cannot be used together with CAPACITY or ERROR")
	}
	return in, nil
}

func (in insert) Run(c *command.Ctx) error {
	return insertItems(c, in.key, in.items, true, in.opts)
}
