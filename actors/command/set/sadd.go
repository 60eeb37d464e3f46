package set

import "github.com/rekv/rekv/actors/command"

// SADD key member [member ...]
type sadd struct {
	key     []byte
	members [][]byte
}

func parseSAdd(args [][]byte) (command.Runner, error) { return sadd{args[1], args[2:]}, nil }

func (s sadd) Run(c *command.Ctx) error {
	set, err := open(c, s.key, true)
	if err != nil {
		return err
	}
	n, err := add(set, s.members)
	if err != nil {
		return err
	}
	c.W.Int(n)
	return nil
}
