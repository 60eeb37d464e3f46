package keys

import (
	"encoding/binary"
	"math/rand/v2"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/codec"
)

// RANDOMKEY: the first live key at or after a random position, wrapping
// to the start of the db.
type randomKey struct{}

func parseRandomKey([][]byte) (command.Runner, error) { return randomKey{}, nil }

func (randomKey) Run(c *command.Ctx) error {
	pos := binary.BigEndian.AppendUint64(nil, rand.Uint64())
	for _, from := range [][]byte{pos, nil} {
		var found []byte
		err := c.Tx.ScanMeta(from, func(key []byte, _ codec.Meta) (bool, error) {
			found = command.Copy(key)
			return false, nil
		})
		if err != nil {
			return err
		}
		if found != nil {
			c.W.Bulk(found)
			return nil
		}
	}
	c.W.Null()
	return nil
}
