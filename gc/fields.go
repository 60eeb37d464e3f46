package gc

import (
	"bytes"
	"context"
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers"
)

// Hash-field expiry (Redis 7.4's active expiry of hash fields). Each hash
// whose fields carry TTLs has one hash-TTL index entry at a time at or
// before its earliest field expiry; a pass walks the entries due, and the
// key's shard deletes the expired fields ("hexpired", and "del" for a hash
// left empty) and moves the entry to the next expiry
// (store.Tx.ExpireFields).

// expireFields runs one bounded walk of the due hash-TTL entries and
// returns how many fields it expired.
func (c *Collector) expireFields(ctx context.Context, budget int) (int, error) {
	if budget <= 0 {
		return 0, nil
	}
	start, end := codec.HashTTLRangeUntil(time.Now().UnixMilli())
	if c.fieldCursor != nil && bytes.Compare(c.fieldCursor, start) > 0 {
		start = c.fieldCursor
	}
	groups := map[[2]int][]ttlItem{}
	due := 0 // entries visited, this node's or not
	var last []byte
	err := c.read(func(tx drivers.Txn) error {
		return tx.Iterate(start, end, drivers.IterOptions{Limit: budget, KeysOnly: true}, func(k, _ []byte) (bool, error) {
			at, db, key, err := codec.DecodeHashTTLKey(k)
			if err != nil {
				return false, err
			}
			if c.mine(key) {
				g := [2]int{c.eng.ShardOf(key), int(db)}
				groups[g] = append(groups[g], ttlItem{at, command.Copy(key)})
			}
			if due++; due == budget {
				last = command.Copy(k)
			}
			return true, nil
		})
	})
	if err != nil {
		return 0, err
	}
	// As the key expiry's walk: the next pass goes on after a full batch
	// (entries another node owns, or not yet expirable, cannot hold up
	// the ones behind them), and starts over once a walk reaches the end.
	c.fieldCursor = nil
	if due == budget {
		c.fieldCursor = append(last, 0)
	}
	if len(groups) == 0 {
		return 0, nil
	}
	markers := c.eng.FlushMarkers()
	type result struct {
		n   int
		err error
	}
	results := make(chan result, len(groups))
	for g, items := range groups {
		go func(shard, db int) {
			run := &fieldsRun{items: items, slot: g[1]}
			if err := c.eng.Exec(ctx, shard, db, fieldsSpec(), run); err != nil {
				results <- result{err: err}
				return
			}
			results <- result{n: run.n}
		}(g[0], markers.DBOf(g[1]))
	}
	expired := 0
	for range groups {
		r := <-results
		expired += r.n
		if r.err != nil && err == nil {
			err = r.err
		}
	}
	c.stats.FieldsExpired.Add(int64(expired))
	return expired, err
}

// fieldsRun expires the due fields of hashes on their shard.
type fieldsRun struct {
	items []ttlItem
	slot  int
	n     int
}

// fieldsSpec declares the GC's field expiry; it notes its own events
// ("hexpired", then "del" for an emptied hash).
func fieldsSpec() *command.Spec {
	return &command.Spec{Name: "gc-hexpire", Flags: command.Write | command.OwnEvents, Class: command.NotifyHash}
}

func (r *fieldsRun) Run(c *command.Ctx) error {
	r.n = 0 // a conflict re-runs it
	if c.Tx.Slot() != r.slot {
		return nil // SWAPDB since the walk: next round
	}
	for _, it := range r.items {
		n, err := c.Tx.ExpireFields(it.key, it.expireAt)
		if err != nil {
			return err
		}
		r.n += n
	}
	return nil
}
