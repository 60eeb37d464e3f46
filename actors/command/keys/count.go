package keys

import "github.com/rekv/rekv/actors/command"

// countTrue replies how many of keys fn is true for, in order (DEL and
// UNLINK: deleted; EXISTS: existing, a key named twice counting twice).
func countTrue(c *command.Ctx, keys [][]byte, fn func(key []byte) (bool, error)) error {
	var n int64
	for _, k := range keys {
		ok, err := fn(k)
		if err != nil {
			return err
		}
		if ok {
			n++
		}
	}
	c.W.Int(n)
	return nil
}
