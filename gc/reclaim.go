package gc

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers"
)

// reclaim deletes the members of dead versions, then their 'g' entries,
// several versions to a batch.
func (c *Collector) reclaim(ctx context.Context, budget int) (int, error) {
	if budget <= 0 || ctx.Err() != nil {
		return 0, nil
	}
	start, end := []byte{codec.PrefixGarbage}, []byte{codec.PrefixGarbage + 1}
	if c.garbageCursor != nil {
		start = c.garbageCursor
	}
	var dead [][]byte
	visited := 0 // entries read, this node's or not (Owns)
	var last []byte
	err := c.read(func(tx drivers.Txn) error {
		return tx.Iterate(start, end, drivers.IterOptions{Limit: c.o.BatchSize, KeysOnly: true},
			func(k, _ []byte) (bool, error) {
				if visited++; visited == c.o.BatchSize {
					last = command.Copy(k)
				}
				if c.o.Owns != nil {
					if _, key, _, err := codec.DecodeGarbageKey(k); err == nil && !c.o.Owns(key) {
						return true, nil
					}
				}
				dead = append(dead, command.Copy(k))
				return true, nil
			})
	})
	if err != nil {
		return 0, err
	}
	if err := c.countBacklog(&c.stats.BacklogVersions, visited, &c.countedVersions, start, end); err != nil {
		return 0, err
	}
	full := visited == c.o.BatchSize
	deleted := 0
	for len(dead) > 0 && deleted < budget {
		n, err := c.deleteChunk(ctx, &dead, min(chunk, budget-deleted))
		deleted += n
		if err != nil {
			return deleted, err
		}
	}
	// The next pass starts at the first entry not finished, not over the
	// tombstones of those before it; after the last, over from the start
	// (entries written behind the cursor meanwhile).
	switch {
	case len(dead) > 0:
		c.garbageCursor = dead[0]
	case full:
		c.garbageCursor = append(last, 0)
	default:
		c.garbageCursor = nil
	}
	return deleted, nil
}

// backlogCount bounds the entries countBacklog walks.
const backlogCount = 100_000

// countBacklog stores in stat how many entries of [start, end) are
// pending: found when a pass read fewer than a batch (all of them),
// otherwise counted up to backlogCount at most once a second (a full
// count each pass would cost more than the pass).
func (c *Collector) countBacklog(stat *atomic.Int64, found int, last *time.Time, start, end []byte) error {
	if found < c.o.BatchSize {
		stat.Store(int64(found))
		return nil
	}
	if time.Since(*last) < time.Second {
		return nil
	}
	*last = time.Now()
	n := 0
	err := c.read(func(tx drivers.Txn) error {
		return tx.Iterate(start, end, drivers.IterOptions{Limit: backlogCount, KeysOnly: true}, func(_, _ []byte) (bool, error) {
			n++
			return true, nil
		})
	})
	stat.Store(int64(n))
	return err
}

// chunk bounds the deletes of one transaction where the driver deletes
// through transactions (drivers.DeleteKeys), and the members one
// deleteChunk collects.
const chunk = 1024

// resumePoint is a garbage entry's progress over several chunks: where
// each of its ranges continues (deleting from the range start again
// would step over the tombstones of everything deleted before; a hint
// only), and how many members went so far (LazyFreed).
type resumePoint struct {
	next    [2][]byte
	members int
}

// deleteChunk deletes up to limit members of the dead versions named by
// the garbage keys at the front of *dead, then the garbage keys of those
// it finished (dropping them from *dead), and returns how many keys it
// deleted. The members are found in a snapshot and deleted blind
// (drivers.DeleteKeys): nothing writes a dead version again, so no
// conflict can arise. A garbage key goes only once its members are gone.
func (c *Collector) deleteChunk(ctx context.Context, dead *[][]byte, limit int) (int, error) {
	if c.resume == nil {
		c.resume = map[string]*resumePoint{}
	}
	type progress struct {
		g    []byte
		next [2][]byte
		done bool
		n    int // members deleted
	}
	var touched []progress
	var keys [][]byte
	err := c.read(func(tx drivers.Txn) error {
		for _, g := range *dead {
			if len(keys) >= limit {
				return nil
			}
			db, key, version, err := codec.DecodeGarbageKey(g)
			if err != nil {
				return err
			}
			prefixes := [2][]byte{codec.SubKeyPrefix(db, key, version), codec.ScoreKeyPrefix(db, key, version)}
			from := prefixes
			if r := c.resume[string(g)]; r != nil {
				from = r.next
			}
			p := progress{g: g, next: from, done: true}
			for i, pre := range prefixes {
				lim := limit - len(keys)
				if lim <= 0 {
					p.done = false
					break
				}
				seen := 0
				err := tx.Iterate(from[i], codec.PrefixEnd(pre), drivers.IterOptions{Limit: lim, KeysOnly: true}, func(k, _ []byte) (bool, error) {
					seen++
					keys = append(keys, command.Copy(k))
					return true, nil
				})
				if err != nil {
					return err
				}
				if seen > 0 {
					p.next[i] = append(command.Copy(keys[len(keys)-1]), 0)
					p.n += seen
				}
				if seen == lim {
					p.done = false // maybe more: the next chunk sees
					break
				}
			}
			touched = append(touched, p)
			if !p.done {
				return nil
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	if err := drivers.DeleteKeys(ctx, c.drv, keys, chunk); err != nil {
		return 0, err
	}
	finished, lazy := 0, 0
	for _, p := range touched {
		members := p.n
		if r := c.resume[string(p.g)]; r != nil {
			members += r.members
		}
		if !p.done {
			c.resume[string(p.g)] = &resumePoint{next: p.next, members: members}
			continue
		}
		finished++
		if members > store.LazyFreeThreshold {
			lazy++
		}
	}
	if finished > 0 {
		// After the members (DeleteKeys returns once they are
		// committed); garbage keys are never written again either.
		gs := make([][]byte, finished)
		for i, p := range touched[:finished] {
			gs[i] = p.g
		}
		if err := drivers.DeleteKeys(ctx, c.drv, gs, chunk); err != nil {
			return 0, err
		}
		for _, g := range gs {
			delete(c.resume, string(g))
		}
	}
	*dead = (*dead)[finished:]
	c.stats.SubkeysDeleted.Add(int64(len(keys)))
	c.stats.VersionsReclaimed.Add(int64(finished))
	c.stats.LazyFreed.Add(int64(lazy))
	return len(keys) + finished, nil
}
