package set

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rset"
)

// SMEMBERS key
type smembers struct{ key []byte }

func parseSMembers(args [][]byte) (command.Runner, error) { return smembers{args[1]}, nil }

func (s smembers) Run(c *command.Ctx) error {
	set, err := rset.Open(c.Tx, s.key, false)
	if err != nil {
		return err
	}
	ms, err := rset.Members(set)
	if err != nil {
		return err
	}
	writeSet(c, ms)
	return nil
}
