package bloom

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rbloom"
)

// BF.RESERVE key error_rate capacity [EXPANSION expansion] [NONSCALING]:
// an empty filter; ERR item exists when the key holds one.
type reserve struct {
	key        []byte
	errorRate  float64
	capacity   uint64
	expansion  uint32
	nonScaling bool
}

func parseReserve(args [][]byte) (command.Runner, error) {
	if len(args) > 7 {
		return nil, rerr.ErrArity("bf.reserve")
	}
	r := reserve{key: args[1], expansion: defaultExpansion}
	e, ok := command.ParseFloat(args[2])
	switch {
	case !ok:
		return nil, rerr.Errorf("ERR bad error rate")
	case !(e > 0 && e < 1):
		return nil, rerr.Errorf("ERR (0 < error rate range < 1) ")
	}
	r.errorRate = e
	n, err := command.Int(args[3])
	switch {
	case err != nil || n > maxCapacity:
		return nil, rerr.Errorf("ERR bad capacity")
	case n <= 0:
		return nil, rerr.Errorf("ERR (capacity should be larger than 0)")
	}
	r.capacity = uint64(n)
	expansionAt := -1
	for i := 4; i < len(args); i++ {
		switch {
		case command.Is(args[i], "nonscaling"):
			r.nonScaling = true
		case command.Is(args[i], "expansion"):
			if i+1 == len(args) {
				return nil, rerr.Errorf("ERR no expansion")
			}
			expansionAt = i + 1
			i++
		}
		// RedisBloom looks for its two options and ignores other words.
	}
	if expansionAt > 0 {
		if r.nonScaling {
			return nil, rerr.Errorf("ERR Nonscaling filters cannot expand")
		}
		x, err := command.Int(args[expansionAt])
		if err != nil || x < 1 || x > 1<<15 {
			return nil, rerr.Errorf("ERR bad expansion")
		}
		r.expansion = uint32(x)
	}
	return r, nil
}

func (r reserve) Run(c *command.Ctx) error {
	f, err := rbloom.Open(c.Tx, r.key)
	if err != nil {
		return err
	}
	if f != nil {
		return errExists
	}
	chain, err := rbloom.NewChain(r.capacity, r.errorRate, r.expansion, r.nonScaling)
	if err != nil {
		return errBadCreate
	}
	if _, err := rbloom.Create(c.Tx, r.key, chain); err != nil {
		return err
	}
	c.W.OK()
	return nil
}
