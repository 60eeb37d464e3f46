package gc

import (
	"bytes"
	"context"
	"encoding/binary"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers"
)

// Eviction: Redis's maxmemory policies, for a store whose keys are not in
// memory. Each round draws up to samples keys (maxmemory-samples) from a
// random place of the meta records (allkeys-*) or of the TTL index
// (volatile-*: the keys with an expiry; volatile-ttl reads its start,
// the keys that expire first), and each shard holding some of them
// deletes the one its policy ranks first: the longest idle (lru), the
// least used (lfu), the soonest to expire (ttl) or the first drawn
// (random). Each deletion raises Redis's "evicted" event (class e), is
// replicated as a DEL, and counts its size as command.Usage estimates
// it, until the sizes add up to what was asked.

// evictSamples is how many members of a collection Usage reads to
// estimate its size; evictMisses how many draws in a row that evict
// nothing end an Evict.
const (
	evictSamples = 5
	evictMisses  = 3
)

// Evict deletes keys as policy chooses them (a maxmemory-policy other
// than noeviction), until their estimated sizes add up to need bytes,
// limit keys are gone, or no key is left to choose. It returns how many
// it deleted and their estimated size.
func (c *Collector) Evict(ctx context.Context, policy string, samples int, need int64, limit int) (int, int64, error) {
	volatile := strings.HasPrefix(policy, "volatile-")
	rank := strings.TrimPrefix(strings.TrimPrefix(policy, "volatile-"), "allkeys-")
	samples = max(samples, 1)
	keys, freed, misses := 0, int64(0), 0
	for freed < need && keys < limit && misses < evictMisses {
		groups, err := c.drawKeys(volatile, rank == "ttl", samples)
		if err != nil || len(groups) == 0 {
			return keys, freed, err
		}
		n, f, err := c.evictOn(ctx, groups, rank)
		if err != nil {
			return keys + n, freed + f, err
		}
		keys, freed = keys+n, freed+f
		if n == 0 {
			misses++ // drew only keys gone since, or another node's
		}
	}
	return keys, freed, nil
}

// drawKeys reads up to n keys this node collects, from a random place of
// the meta records or, with volatile, of the TTL index's keys not yet
// expired (the soonest to expire with first), going on from the range's
// start when it reaches the end, and groups them by shard and slot.
func (c *Collector) drawKeys(volatile, first bool, n int) (map[[2]int][][]byte, error) {
	lo, hi := codec.MetaRangeAll()
	decode := func(k []byte) (codec.Slot, []byte, error) { return codec.DecodeMetaKey(k) }
	if volatile {
		// The entries of keys already expired (the GC's to collect) are
		// passed over: they come first, and none is a key to evict.
		_, lo = codec.TTLRangeUntil(time.Now().UnixMilli())
		hi = []byte{codec.PrefixTTL + 1}
		decode = func(k []byte) (codec.Slot, []byte, error) {
			_, slot, key, err := codec.DecodeTTLKey(k)
			return slot, key, err
		}
	}
	groups := map[[2]int][][]byte{}
	err := c.read(func(tx drivers.Txn) error {
		from := lo
		if !first {
			var err error
			if from, err = randomPlace(tx, lo, hi); err != nil || from == nil {
				return err
			}
		}
		seen := map[string]bool{}
		visit := func(k, _ []byte) (bool, error) {
			slot, key, err := decode(k)
			if err != nil {
				return false, err
			}
			if seen[string(k)] {
				return false, nil // wrapped round to where it began
			}
			seen[string(k)] = true
			if c.mine(key) {
				g := [2]int{c.eng.ShardOf(key), int(slot)}
				groups[g] = append(groups[g], command.Copy(key))
			}
			return len(seen) < n, nil
		}
		opts := drivers.IterOptions{Limit: n, KeysOnly: true}
		if err := tx.Iterate(from, hi, opts, visit); err != nil || len(seen) >= n || bytes.Equal(from, lo) {
			return err
		}
		return tx.Iterate(lo, from, opts, visit)
	})
	return groups, err
}

// randomPlace returns a key drawn between the first and the last key of
// [lo, hi), reading the 8 bytes after their common prefix as numbers;
// nil when the range is empty.
func randomPlace(tx drivers.Txn, lo, hi []byte) ([]byte, error) {
	var first, last []byte
	edge := func(dst *[]byte) func(k, _ []byte) (bool, error) {
		return func(k, _ []byte) (bool, error) { *dst = command.Copy(k); return false, nil }
	}
	if err := tx.Iterate(lo, hi, drivers.IterOptions{Limit: 1, KeysOnly: true}, edge(&first)); err != nil || first == nil {
		return nil, err
	}
	if err := tx.Iterate(lo, hi, drivers.IterOptions{Limit: 1, KeysOnly: true, Reverse: true}, edge(&last)); err != nil {
		return nil, err
	}
	p := 0
	for p < len(first) && p < len(last) && first[p] == last[p] {
		p++
	}
	word := func(k []byte) uint64 {
		var b [8]byte
		if p < len(k) {
			copy(b[:], k[p:])
		}
		return binary.BigEndian.Uint64(b[:])
	}
	a, b := word(first), word(last)
	if b <= a {
		return first, nil
	}
	return binary.BigEndian.AppendUint64(bytes.Clone(first[:p]), a+rand.Uint64N(b-a+1)), nil
}

// evictOn has each group's shard evict one of its keys, all shards at
// once, and returns how many keys went and their estimated size.
func (c *Collector) evictOn(ctx context.Context, groups map[[2]int][][]byte, rank string) (int, int64, error) {
	var freed atomic.Int64
	n, err := onShards(ctx, c, groups, evictSpec(), func(items [][]byte, slot int) countedRun {
		return &evictRun{items: items, slot: slot, rank: rank, freed: &freed}
	})
	return n, freed.Load(), err
}

// evictSpec declares an eviction: each key it removes raises Redis's
// "evicted" event (class e).
func evictSpec() *command.Spec {
	return &command.Spec{Name: "gc-evict", Flags: command.Write | command.NoTouch, Class: command.NotifyEvicted, Event: "evicted"}
}

// evictRun deletes, on its shard, the one of items its rank puts first:
// "lru" the longest idle, "lfu" the least used, "ttl" the soonest to
// expire, otherwise the first still there.
type evictRun struct {
	items   [][]byte // keys drawn on the shard
	slot    int      // where the keys were read (SWAPDB since: none is evicted)
	rank    string
	evicted bool
	size    int64         // the evicted key's estimated size
	freed   *atomic.Int64 // where the sizes of every shard's add up
}

// count is 1 when the run evicted a key, adding its size to freed (read
// once, after the run committed).
func (r *evictRun) count() int {
	if !r.evicted {
		return 0
	}
	r.freed.Add(r.size)
	return 1
}

func (r *evictRun) Run(c *command.Ctx) error {
	r.evicted, r.size = false, 0 // a conflict re-runs it
	if c.Tx.Records().Slot() != r.slot {
		return nil
	}
	var best []byte
	var bestScore int64
	for _, key := range r.items {
		m, ok, err := c.Tx.Meta(key)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		var score int64 // the higher, the sooner evicted
		switch r.rank {
		case "lru":
			score = c.Tx.Access().IdleMillis(key)
		case "lfu":
			score = -c.Tx.Access().Freq(key)
		case "ttl":
			score = -m.ExpireAt
		}
		if best == nil || score > bestScore {
			best, bestScore = key, score
		}
	}
	if best == nil {
		return nil
	}
	size, _, err := command.Usage(c, best, evictSamples)
	if err != nil {
		return err
	}
	ok, err := c.Tx.Delete(best)
	if err != nil || !ok {
		return err
	}
	c.Effect([]byte("DEL"), best)
	r.evicted, r.size = true, size
	return nil
}
