package bloom

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rbloom"
)

// BF.INFO key [CAPACITY | SIZE | FILTERS | ITEMS | EXPANSION]: the
// filter's capacity, memory size (as RedisBloom counts it), sub-filters,
// items and expansion rate (nil for a non-scaling filter); one of them,
// as an array of one, when named.
type info struct {
	key   []byte
	field string // "" for all
}

var infoFields = []string{"capacity", "size", "filters", "items", "expansion"}

func parseInfo(args [][]byte) (command.Runner, error) {
	switch len(args) {
	case 2:
		return info{key: args[1]}, nil
	case 3:
		for _, f := range infoFields {
			if command.Is(args[2], f) {
				return info{key: args[1], field: f}, nil
			}
		}
		return nil, rerr.Errorf("ERR Invalid information value")
	}
	return nil, rerr.ErrArity("bf.info")
}

func (in info) Run(c *command.Ctx) error {
	f, err := rbloom.Open(c.Tx, in.key)
	if err != nil {
		return err
	}
	if f == nil {
		return errNotFound
	}
	ch := f.Chain
	value := func(field string) {
		switch field {
		case "capacity":
			c.W.Int(int64(ch.Capacity()))
		case "size":
			c.W.Int(int64(ch.MemUsage()))
		case "filters":
			c.W.Int(int64(len(ch.Links)))
		case "items":
			c.W.Int(int64(ch.Items))
		default:
			if ch.Options&rbloom.OptNoScaling != 0 {
				c.W.Null()
			} else {
				c.W.Int(int64(ch.Expansion))
			}
		}
	}
	if in.field != "" {
		c.W.Array(1)
		value(in.field)
		return nil
	}
	c.W.Map(len(infoFields))
	for i, name := range []string{"Capacity", "Size", "Number of filters", "Number of items inserted", "Expansion rate"} {
		c.W.Simple(name)
		value(infoFields[i])
	}
	return nil
}
