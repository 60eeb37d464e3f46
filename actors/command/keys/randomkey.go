package keys

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/codec"
)

// RANDOMKEY picks a key by descending the byte trie of the db's live keys:
// at each depth it lists the distinct next bytes under the chosen prefix
// (one seek each) and draws one uniformly (a key equal to the prefix is
// one more choice). Every key can come out, whatever the spread of the
// names ("bar" and "foo" are drawn half the time each, which a seek to a
// random position would not do). Past a seek budget (a very wide trie) it
// falls back to the first key at or after a random position.
type randomKey struct{}

func parseRandomKey([][]byte) (command.Runner, error) { return randomKey{}, nil }

// randomKeySeeks bounds the seeks of one descent.
const randomKeySeeks = 512

func (randomKey) Run(c *command.Ctx) error {
	key, ok, err := descendKeys(c)
	if err != nil {
		return err
	}
	if !ok {
		if key, err = keyAtRandomPosition(c); err != nil {
			return err
		}
	}
	if key == nil {
		c.W.Null()
		return nil
	}
	c.W.Bulk(key)
	return nil
}

// firstFrom returns the first live key at or after from.
func firstFrom(c *command.Ctx, from []byte) ([]byte, error) {
	var found []byte
	err := c.Tx.ScanMetaReaping(from, func(key []byte, _ codec.Meta) (bool, error) {
		found = command.Copy(key)
		return false, nil
	})
	return found, err
}

// descendKeys draws a key down the trie; ok is false when the seek budget
// ran out. A nil key with ok means the db is empty.
func descendKeys(c *command.Ctx) (key []byte, ok bool, err error) {
	seeks := 0
	prefix := []byte{}
	for {
		// The choices under prefix: the prefix itself if it is a key, and
		// each distinct next byte.
		var children []int // -1 for the prefix itself
		at := prefix
		for {
			if seeks++; seeks > randomKeySeeks {
				return nil, false, nil
			}
			k, err := firstFrom(c, at)
			if err != nil {
				return nil, false, err
			}
			if k == nil || !bytes.HasPrefix(k, prefix) {
				break
			}
			if len(k) == len(prefix) {
				children = append(children, -1)
				at = append(bytes.Clone(prefix), 0)
				continue
			}
			b := k[len(prefix)]
			children = append(children, int(b))
			if b == 0xff {
				break
			}
			at = append(bytes.Clone(prefix), b+1)
		}
		if len(children) == 0 {
			return nil, true, nil // empty db (only at the root)
		}
		b := children[rand.IntN(len(children))]
		if b < 0 {
			return prefix, true, nil
		}
		prefix = append(prefix, byte(b))
	}
}

// keyAtRandomPosition returns the first key at or after a random position,
// wrapping to the start of the db.
func keyAtRandomPosition(c *command.Ctx) ([]byte, error) {
	pos := binary.BigEndian.AppendUint64(nil, rand.Uint64())
	k, err := firstFrom(c, pos)
	if err != nil || k != nil {
		return k, err
	}
	return firstFrom(c, nil)
}
