package strings

import "github.com/rekv/rekv/actors/command"

// STRLEN key
type strlen struct{ key []byte }

func parseStrlen(args [][]byte) (command.Runner, error) { return strlen{args[1]}, nil }

func (s strlen) Run(c *command.Ctx) error {
	str, err := c.Tx.OpenString(s.key)
	if err != nil {
		return err
	}
	c.W.Int(str.Len())
	return nil
}
