package keys

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/codec"
)

// DBSIZE counts the live keys of the selected db by walking its meta keys.
type dbSize struct{}

func parseDBSize([][]byte) (command.Runner, error) { return dbSize{}, nil }

func (dbSize) Run(c *command.Ctx) error {
	var n int64
	err := c.Tx.ScanMeta(nil, func([]byte, codec.Meta) (bool, error) {
		n++
		return true, nil
	})
	if err != nil {
		return err
	}
	c.W.Int(n)
	return nil
}
