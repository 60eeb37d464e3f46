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
	str, err := c.Tx.OpenString(g.key)
	if err != nil {
		return err
	}
	start, end, ok := byteRange(str.Len(), g.start, g.end)
	if !ok {
		c.W.Bulk(nil)
		return nil
	}
	v, err := str.Read(start, end-start+1)
	if err != nil {
		return err
	}
	c.W.Bulk(v)
	return nil
}

// byteRange applies Redis's GETRANGE index rules to a string of n bytes:
// the inclusive range [start, end], or ok false when it is empty.
func byteRange(n, start, end int64) (int64, int64, bool) {
	if start < 0 && end < 0 && start > end {
		return 0, 0, false
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
		return 0, 0, false
	}
	return start, end, true
}
