package bloom

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rbloom"
)

// BF.CARD key: the items added (0 for a missing key).
type card struct{ key []byte }

func parseCard(args [][]byte) (command.Runner, error) { return card{args[1]}, nil }

func (k card) Run(c *command.Ctx) error {
	f, err := rbloom.Open(c.Tx, k.key)
	if err != nil {
		return err
	}
	var n uint64
	if f != nil {
		n = f.Chain.Items
	}
	c.W.Int(int64(n))
	return nil
}
