package keys

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/store"
)

// FLUSHDB [ASYNC | SYNC]. O(1): it writes the db's flush marker (a fresh
// version below which every key of the db is dead to readers) while holding
// every shard, and empties the shards' caches; the GC then reclaims the
// dead records in the background. SYNC and ASYNC behave alike.
type flush struct{ all bool }

func parseFlushDB(args [][]byte) (command.Runner, error) { return parseFlush(args, false) }

func parseFlush(args [][]byte, all bool) (command.Runner, error) {
	if len(args) > 2 || len(args) == 2 && !command.Is(args[1], "sync") && !command.Is(args[1], "async") {
		return nil, rerr.ErrSyntax
	}
	return flush{all: all}, nil
}

func (f flush) Run(c *command.Ctx) error {
	dbs := []int{c.DB}
	if f.all {
		dbs = dbs[:0]
		for db := range store.Databases { // the client's namespace's
			dbs = append(dbs, command.InNamespace(c.DB, db))
		}
	}
	for _, db := range dbs {
		if err := c.Tx.Records().Flush(db); err != nil {
			return err
		}
	}
	c.PurgeCaches()
	c.W.OK()
	return nil
}
