package set

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rset"
)

// SCARD key: the member count kept in the meta, O(1).
type scard struct{ key []byte }

func parseSCard(args [][]byte) (command.Runner, error) { return scard{args[1]}, nil }

func (s scard) Run(c *command.Ctx) error {
	set, err := rset.Open(c.Tx, s.key, false)
	if err != nil {
		return err
	}
	var n int64
	if set != nil {
		n = set.Size()
	}
	c.W.Int(n)
	return nil
}
