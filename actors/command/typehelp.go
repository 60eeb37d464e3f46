package command

import "github.com/rekv/rekv/codec"

// StreamNodeLimits returns stream-node-max-entries and
// stream-node-max-bytes: Redis's defaults where there is no server (a
// replica's applier, the GC, a command table test).
func (c *Ctx) StreamNodeLimits() (entries, bytes int64) {
	if c.Server.Config == nil {
		return 100, 4096
	}
	return c.Server.Config.StreamNodeLimits()
}

// EncodingLimits are the parameters past which Redis converts a small
// collection to its general encoding, which it then keeps (a member too
// long, or too many): set-max-intset-entries, hash-max-listpack-entries
// and -value, zset-max-listpack-entries and -value. rekv marks such a
// collection converted (codec.EncodingConverted) for OBJECT ENCODING.
type EncodingLimits struct {
	IntsetEntries int64
	Hash, ZSet    ListpackLimits
}

// ListpackLimits is codec's, for the layers that do not see the codec
// (the network front fills EncodingLimits).
type ListpackLimits = codec.ListpackLimits

// DefaultEncodingLimits returns Redis 7.0's defaults.
func DefaultEncodingLimits() EncodingLimits {
	return EncodingLimits{IntsetEntries: 512, Hash: ListpackLimits{Entries: 512, Value: 64},
		ZSet: ListpackLimits{Entries: 128, Value: 64}}
}

// EncodingLimits returns the encoding limits in effect (Redis's defaults
// without a server).
func (c *Ctx) EncodingLimits() EncodingLimits {
	if c.Server.Config == nil {
		return DefaultEncodingLimits()
	}
	return c.Server.Config.EncodingLimits()
}

// Ints replies vals: the one integer, or with array an array of them
// (the single and multi forms of BF.EXISTS, CF.ADD, CMS.QUERY...).
func (c *Ctx) Ints(vals []int64, array bool) {
	if !array {
		c.W.Int(vals[0])
		return
	}
	c.W.Array(len(vals))
	for _, v := range vals {
		c.W.Int(v)
	}
}
