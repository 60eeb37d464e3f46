package strings

import "github.com/rekv/rekv/actors/command"

// GETRANGE key start end
type getRange struct {
	key        []byte
	start, end int64
}

func parseGetRange(args [][]byte) (command.Runner, error) {
	start, err := command.Int(args[2])
	if err != nil {
		return nil, err
	}
	end, err := command.Int(args[3])
	if err != nil {
		return nil, err
	}
	return getRange{key: args[1], start: start, end: end}, nil
}

func (g getRange) Run(c *command.Ctx) error {
	v, _, err := c.Tx.GetString(g.key)
	if err != nil {
		return err
	}
	c.W.Bulk(substr(v, g.start, g.end))
	return nil
}

// substr applies Redis's GETRANGE index rules.
func substr(v []byte, start, end int64) []byte {
	n := int64(len(v))
	if start < 0 && end < 0 && start > end {
		return nil
	}
	if start < 0 {
		start += n
	}
	if end < 0 {
		end += n
	}
	start, end = max(start, 0), max(end, 0)
	if end >= n {
		end = n - 1
	}
	if start > end || n == 0 {
		return nil
	}
	return v[start : end+1]
}
