package keys

import (
	"crypto/sha1" // #nosec G505 -- a content digest, as Redis's DEBUG DIGEST; not for security
	"encoding/binary"
	"encoding/hex"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/codec"
)

// DEBUG DIGEST and DEBUG DIGEST-VALUE key [key ...]: 40 hex digits that
// change when, and only when, the data changes. Redis's test suite
// compares them before and after a command that must keep (COPY, RENAME,
// RESTORE, DEBUG RELOAD) or change a value. As in Redis, a value's digest
// covers its type, its content and its expiry, and a dataset's is the XOR
// of its keys' (so key order does not matter), each mixed with its
// database and name; a missing key, and an empty dataset, digest to 40
// zeros. The digits are not Redis's: a value is digested as DUMP
// serializes it (rekv's DUMP writes equal values identically), where
// Redis walks its own encodings; no test compares digests across servers.
// Both are variants of DEBUG (command.Spec.Variants) that read keys.
type debugDigestValue struct{ keys [][]byte }

func parseDebugDigestValue(args [][]byte) (command.Runner, error) {
	return debugDigestValue{keys: args[2:]}, nil
}

// isDebugDigestValue picks DEBUG DIGEST-VALUE among DEBUG's argument lists.
func isDebugDigestValue(args [][]byte) bool {
	return len(args) >= 2 && command.Is(args[1], "digest-value")
}

func (d debugDigestValue) Run(c *command.Ctx) error {
	if !c.DebugAllowed(c.ClientInfo) {
		return command.ErrDebugNotAllowed
	}
	out := make([]string, len(d.keys))
	for i, key := range d.keys {
		sum, err := valueDigest(c, key)
		if err != nil {
			return err
		}
		out[i] = hex.EncodeToString(sum[:])
	}
	c.W.Array(len(out))
	for _, s := range out {
		c.W.Simple(s)
	}
	return nil
}

type debugDigest struct{}

func parseDebugDigest([][]byte) (command.Runner, error) { return debugDigest{}, nil }

// isDebugDigest picks DEBUG DIGEST among DEBUG's argument lists.
func isDebugDigest(args [][]byte) bool { return len(args) == 2 && command.Is(args[1], "digest") }

func (debugDigest) Run(c *command.Ctx) error {
	if !c.DebugAllowed(c.ClientInfo) {
		return command.ErrDebugNotAllowed
	}
	var total [sha1.Size]byte
	defer c.Tx.Use(c.DB)
	for db := range store.Databases {
		c.Tx.Use(command.InNamespace(c.DB, db))
		var keys [][]byte
		err := c.Tx.ScanMeta(nil, func(key []byte, _ codec.Meta) (bool, error) {
			keys = append(keys, command.Copy(key))
			return true, nil
		})
		if err != nil {
			return err
		}
		for _, key := range keys {
			v, err := valueDigest(c, key)
			if err != nil {
				return err
			}
			h := sha1.New() // #nosec G401
			_, _ = h.Write(binary.BigEndian.AppendUint32(nil, uint32(db)))
			_, _ = h.Write(binary.BigEndian.AppendUint32(nil, uint32(len(key))))
			_, _ = h.Write(key)
			_, _ = h.Write(v[:])
			for i, b := range h.Sum(nil) {
				total[i] ^= b
			}
		}
	}
	c.W.Simple(hex.EncodeToString(total[:]))
	return nil
}

// valueDigest digests key's value in the selected database: its type,
// its DUMP serialization and its expiry; zeros for a missing key.
func valueDigest(c *command.Ctx, key []byte) ([sha1.Size]byte, error) {
	var sum [sha1.Size]byte
	m, ok, err := c.Tx.Meta(key)
	if err != nil || !ok {
		return sum, err
	}
	p, ok, err := DumpPayload(c, key)
	if err != nil || !ok {
		return sum, err
	}
	h := sha1.New() // #nosec G401
	_, _ = h.Write([]byte(m.Type.Info().Name))
	_, _ = h.Write([]byte{0})
	_, _ = h.Write(p)
	if m.ExpireAt != 0 {
		_, _ = h.Write([]byte("!!expire!!"))
		_, _ = h.Write(binary.BigEndian.AppendUint64(nil, uint64(m.ExpireAt)))
	}
	h.Sum(sum[:0])
	return sum, nil
}
