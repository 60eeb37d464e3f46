package keys

import "github.com/rekv/rekv/actors/command"

// EXISTS key [key ...]: a key named twice counts twice.
type exists struct{ keys [][]byte }

func parseExists(args [][]byte) (command.Runner, error) { return exists{args[1:]}, nil }

func (e exists) Run(c *command.Ctx) error {
	var n int64
	for _, k := range e.keys {
		ok, err := c.Tx.Exists(k)
		if err != nil {
			return err
		}
		if ok {
			n++
		}
	}
	c.W.Int(n)
	return nil
}
