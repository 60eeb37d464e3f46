package set

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rset"
)

// SADD key member [member ...]
type sadd struct {
	key     []byte
	members [][]byte
}

func parseSAdd(args [][]byte) (command.Runner, error) { return sadd{args[1], args[2:]}, nil }

func (s sadd) Run(c *command.Ctx) error {
	set, err := rset.Open(c.Tx, s.key, true)
	if err != nil {
		return err
	}
	n, err := rset.Add(set, s.members, c.EncodingLimits().IntsetEntries)
	if err != nil {
		return err
	}
	c.W.Int(n)
	return nil
}
