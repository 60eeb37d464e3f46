package gc

import (
	"bytes"
	"context"
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers"
)

// expire walks due TTL entries and has their shards expire them, all
// shards at once.
func (c *Collector) expire(ctx context.Context, budget int) (int, error) {
	if budget <= 0 {
		return 0, nil
	}
	start, end := codec.TTLRangeUntil(time.Now().UnixMilli())
	groups, due, start, err := c.walkDue(start, end, &c.ttlCursor, budget, codec.DecodeTTLKey)
	if err != nil {
		return 0, err
	}
	if err := c.countBacklog(&c.stats.BacklogExpired, due, &c.countedExpired, start, end); err != nil {
		return 0, err
	}
	expired, err := onShards(ctx, c, groups, expireSpec(), func(items []ttlItem, slot int) countedRun {
		return &expireRun{items: items, slot: slot}
	})
	c.stats.KeysExpired.Add(int64(expired))
	return expired, err
}

// walkDue reads up to budget entries of a time index (TTL or hash-TTL)
// in [start, end), from *cursor on, and groups this node's by shard and
// db (the entries' db byte). It returns the groups, how many entries it
// visited (this node's or not) and where it started. The next walk goes
// on after a full batch, not over its tombstones (and entries another
// node owns cannot hold up the ones behind them); once a walk reaches the
// end the next starts over, for the entries left (not yet due for their
// shard, another database's after a SWAPDB, or written behind the
// cursor).
func (c *Collector) walkDue(start, end []byte, cursor *[]byte, budget int,
	decode func(k []byte) (int64, codec.Slot, []byte, error)) (map[[2]int][]ttlItem, int, []byte, error) {
	if *cursor != nil && bytes.Compare(*cursor, start) > 0 {
		start = *cursor
	}
	groups := map[[2]int][]ttlItem{}
	due := 0
	var last []byte
	err := c.read(func(tx drivers.Txn) error {
		return tx.Iterate(start, end, drivers.IterOptions{Limit: budget, KeysOnly: true}, func(k, _ []byte) (bool, error) {
			at, db, key, err := decode(k)
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
		return nil, 0, start, err
	}
	*cursor = nil
	if due == budget {
		*cursor = append(last, 0)
	}
	return groups, due, start, nil
}

// countedRun is a GC runner that counts what it did.
type countedRun interface {
	command.Runner
	count() int
}

// onShards runs, for each group of walkDue (or drawKeys: by shard and
// slot), the runner newRun makes on the group's shard, all shards at
// once, and returns the sum of their counts (a runner whose Exec failed
// may still run later: its count is not read).
func onShards[T any](ctx context.Context, c *Collector, groups map[[2]int][]T, spec *command.Spec,
	newRun func(items []T, slot int) countedRun) (int, error) {
	markers := c.eng.FlushMarkers()
	if len(groups) > 0 {
		c.runHook()
	}
	type result struct {
		n   int
		err error
	}
	results := make(chan result, len(groups))
	for g, items := range groups {
		go func(shard, db int) {
			run := newRun(items, g[1])
			if err := c.eng.Exec(ctx, shard, db, spec, run); err != nil {
				results <- result{err: err}
				return
			}
			results <- result{n: run.count()}
		}(g[0], markers.DBOf(g[1]))
	}
	total := 0
	var err error
	for range groups {
		r := <-results
		total += r.n
		if r.err != nil && err == nil {
			err = r.err
		}
	}
	return total, err
}

// ExpireLazily has the shards delete keys a command found expired but
// still stored (Redis's lazy expiry; the engine's Expired hook), as a
// pass would: each with its "expired" event, counted in expired_keys.
// The deletions are queued on the shards at once, before the command's
// reply, and not waited for. It runs whether or not active expiry is
// paused (DEBUG SET-ACTIVE-EXPIRE 0), as Redis's lazy expiry does, on the
// keys this node collects; not during a CLIENT PAUSE (Options.Paused).
func (c *Collector) ExpireLazily(refs []store.ExpiredRef) {
	if c.paused() {
		return
	}
	type group struct{ shard, db, slot int }
	groups := map[group][]ttlItem{}
	for _, r := range refs {
		if !c.mine(r.Key) {
			continue
		}
		g := group{c.eng.ShardOf(r.Key), r.DB, int(r.Slot)}
		groups[g] = append(groups[g], ttlItem{expireAt: r.ExpireAt, key: command.Copy(r.Key)})
	}
	for g, items := range groups {
		run := &expireRun{items: items, slot: g.slot}
		done := c.eng.Enqueue(g.shard, g.db, expireSpec(), run)
		go func() {
			if err := <-done; err == nil {
				c.stats.KeysExpired.Add(int64(run.count()))
			}
		}()
	}
}

// expireRun expires TTL entries on their shard (see store.Tx.ExpireDue).
// n is how many it expired.
type expireRun struct {
	items []ttlItem
	slot  int // where the keys are stored (the TTL entries' db byte)
	n     int
}

// expireSpec declares the GC's expiry: each key it removes raises Redis's
// "expired" event (class x).
func expireSpec() *command.Spec {
	return &command.Spec{Name: "gc-expire", Flags: command.Write | command.NoTouch, Class: command.NotifyExpired, Event: "expired"}
}

func (r *expireRun) count() int { return r.n }

func (r *expireRun) Run(c *command.Ctx) error {
	r.n = 0 // a conflict re-runs it
	if c.Tx.Records().Slot() != r.slot {
		return nil // SWAPDB since the walk (or another node's): next round
	}
	if c.Tx.Shared() { // one round trip for all their metas (as sweepFlushed's)
		keys := make([][]byte, len(r.items))
		for i, it := range r.items {
			keys[i] = it.key
		}
		c.Tx.Prefetch(keys)
	}
	for _, it := range r.items {
		ok, err := c.Tx.Records().ExpireDue(it.key, it.expireAt)
		if err != nil {
			return err
		}
		if ok {
			r.n++
		}
	}
	return nil
}
