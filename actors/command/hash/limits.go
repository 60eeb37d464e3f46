package hash

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rhash"
)

// limits returns hash-max-listpack-entries and -value, past which a hash
// is marked converted (rhash.Limits).
func limits(c *command.Ctx) rhash.Limits {
	l := c.EncodingLimits()
	return rhash.Limits{Entries: l.HashEntries, Value: l.HashValue}
}
