package keys

import (
	"bytes"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/glob"
)

// KEYS pattern. The pattern's literal prefix bounds the walk.
type keysCmd struct{ pattern []byte }

func parseKeys(args [][]byte) (command.Runner, error) { return keysCmd{args[1]}, nil }

func (k keysCmd) Run(c *command.Ctx) error {
	var out [][]byte
	prefix := glob.LiteralPrefix(k.pattern)
	matchAll := string(k.pattern) == "*"
	err := c.Tx.ScanMeta(prefix, func(key []byte, _ codec.Meta) (bool, error) {
		if !bytes.HasPrefix(key, prefix) {
			return false, nil
		}
		if matchAll || glob.Match(k.pattern, key, false) {
			out = append(out, command.Copy(key))
		}
		return true, nil
	})
	if err != nil {
		return err
	}
	c.W.Array(len(out))
	for _, key := range out {
		c.W.Bulk(key)
	}
	return nil
}
