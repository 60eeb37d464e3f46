package zset

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rzset"
)

// limits returns zset-max-listpack-entries and -value, past which a
// sorted set is marked converted (rzset.Limits).
func limits(c *command.Ctx) rzset.Limits {
	l := c.EncodingLimits()
	return rzset.Limits{Entries: l.ZSetEntries, Value: l.ZSetValue}
}
