package keys

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers"
)

// FLUSHDB [ASYNC | SYNC]. It holds every shard, deletes the db's records in
// bounded transactions and empties the shards' caches.
type flush struct{ all bool }

func parseFlushDB(args [][]byte) (command.Runner, error) { return parseFlush(args, false) }

func parseFlush(args [][]byte, all bool) (command.Runner, error) {
	if len(args) > 2 || len(args) == 2 && !command.Is(args[1], "sync") && !command.Is(args[1], "async") {
		return nil, rerr.ErrSyntax
	}
	return flush{all: all}, nil
}

func (f flush) Run(c *command.Ctx) error {
	defer c.PurgeCaches()
	var ranges [][2][]byte
	if f.all {
		for _, p := range []byte{codec.PrefixMeta, codec.PrefixData, codec.PrefixScore, codec.PrefixTTL, codec.PrefixGarbage} {
			ranges = append(ranges, [2][]byte{{p}, {p + 1}})
		}
	} else {
		db := byte(c.DB)
		for _, p := range []byte{codec.PrefixMeta, codec.PrefixData, codec.PrefixScore, codec.PrefixGarbage} {
			ranges = append(ranges, [2][]byte{{p, db}, {p, db + 1}})
		}
		if err := deleteTTLEntries(c.Driver, db); err != nil {
			return err
		}
	}
	for _, r := range ranges {
		if err := store.DeleteRange(c.Driver, r[0], r[1]); err != nil {
			return err
		}
	}
	c.W.OK()
	return nil
}

// deleteTTLEntries removes the TTL-index entries of one db.
func deleteTTLEntries(drv drivers.Driver, db byte) error {
	return store.DeleteRangeIf(drv, []byte{codec.PrefixTTL}, []byte{codec.PrefixTTL + 1}, func(k []byte) bool {
		_, kdb, _, err := codec.DecodeTTLKey(k)
		return err == nil && kdb == db
	})
}
