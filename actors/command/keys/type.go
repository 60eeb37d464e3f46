package keys

import "github.com/rekv/rekv/actors/command"

// TYPE key
type typeCmd struct{ key []byte }

func parseType(args [][]byte) (command.Runner, error) { return typeCmd{args[1]}, nil }

func (t typeCmd) Run(c *command.Ctx) error {
	typ, err := c.Tx.Type(t.key)
	if err != nil {
		return err
	}
	c.W.Simple(typ.String())
	return nil
}
