package bloom

import (
	"fmt"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rbloom"
)

// BF.DEBUG key: the filter's items, then per sub-filter its bytes, bits,
// hashes, hash width, capacity, items and error rate, as RedisBloom
// prints them.
type debug struct{ key []byte }

func parseDebug(args [][]byte) (command.Runner, error) { return debug{args[1]}, nil }

func (d debug) Run(c *command.Ctx) error {
	f, err := rbloom.Open(c.Tx, d.key)
	if err != nil {
		return err
	}
	if f == nil {
		return errNotFound
	}
	ch := f.Chain
	c.W.Array(1 + len(ch.Links))
	c.W.BulkString(fmt.Sprintf("size:%d", ch.Items))
	width := 32
	if ch.Options&rbloom.OptForce64 != 0 {
		width = 64
	}
	for _, l := range ch.Links {
		c.W.BulkString(fmt.Sprintf("bytes:%d bits:%d hashes:%d hashwidth:%d capacity:%d size:%d ratio:%.6g",
			l.Bytes, l.Bits, l.Hashes, width, l.Capacity, l.Items, l.Error))
	}
	return nil
}
