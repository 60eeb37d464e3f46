package stream

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rstream"
)

// XLEN key
type xlen struct{ key []byte }

func parseXLen(args [][]byte) (command.Runner, error) { return xlen{args[1]}, nil }

func (x xlen) Run(c *command.Ctx) error {
	s, err := rstream.Open(c.Tx, x.key, false)
	if err != nil {
		return err
	}
	var n int64
	if s != nil {
		n = s.Len()
	}
	c.W.Int(n)
	return nil
}
