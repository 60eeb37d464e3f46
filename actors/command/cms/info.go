package cms

import "github.com/rekv/rekv/actors/command"

// CMS.INFO key: width, depth and the total of all increments (a map in
// RESP3).
type info struct{ key []byte }

func parseInfo(args [][]byte) (command.Runner, error) { return info{args[1]}, nil }

func (in info) Run(c *command.Ctx) error {
	s, err := open(c, in.key)
	if err != nil {
		return err
	}
	c.W.Map(3)
	c.W.Simple("width")
	c.W.Int(int64(s.Width))
	c.W.Simple("depth")
	c.W.Int(int64(s.Depth))
	c.W.Simple("count")
	c.W.Int(int64(s.Count()))
	return nil
}
