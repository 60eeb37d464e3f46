package cuckoo

import (
	"fmt"

	"github.com/rekv/rekv/actors/command"
)

// CF.INFO key: the filter's size (as RedisBloom counts it), buckets of
// its first sub-filter, sub-filters, items inserted and deleted, bucket
// size, expansion rate and max iterations.
type info struct{ key []byte }

func parseInfo(args [][]byte) (command.Runner, error) { return info{args[1]}, nil }

func (in info) Run(c *command.Ctx) error {
	f, err := open(c, in.key)
	if err != nil {
		return err
	}
	h := f.H
	c.W.Map(8)
	for _, kv := range []struct {
		name string
		v    uint64
	}{{"Size", h.MemUsage()}, {"Number of buckets", h.Buckets}, {"Number of filters", h.Filters},
		{"Number of items inserted", h.Items}, {"Number of items deleted", h.Deletes},
		{"Bucket size", uint64(h.BucketSize)}, {"Expansion rate", uint64(h.Expansion)},
		{"Max iterations", uint64(h.MaxIterations)}} {
		c.W.Simple(kv.name)
		c.W.Int(int64(kv.v))
	}
	return nil
}

// CF.DEBUG key: RedisBloom's one-line summary of the filter.
type debug struct{ key []byte }

func parseDebug(args [][]byte) (command.Runner, error) { return debug{args[1]}, nil }

func (d debug) Run(c *command.Ctx) error {
	f, err := open(c, d.key)
	if err != nil {
		return err
	}
	h := f.H
	c.W.BulkString(fmt.Sprintf("bktsize:%d buckets:%d items:%d deletes:%d filters:%d max_iterations:%d expansion:%d",
		h.BucketSize, h.Buckets, h.Items, h.Deletes, h.Filters, h.MaxIterations, h.Expansion))
	return nil
}
