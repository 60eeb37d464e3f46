package gc

import (
	"context"
	"time"

	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers"
	"github.com/rekv/rekv/namespaces"
)

// The meter measures each named namespace's usage: its live keys and
// their estimated bytes, estimated as MEMORY USAGE does (the key and a
// fixed overhead; a string's length; a collection's members times the
// bytes of a sample of them). It walks the meta records of every named
// namespace's databases (slots 16 and up, which codec orders after the
// default namespace's) at most MeterBatch at a time, one step per tick,
// and when a walk ends stores each defined namespace's totals
// (codec.NamespaceUsageKey), which every node reads with the namespace
// definitions: INFO namespaces, /metrics and the max-keys and max-bytes
// quotas. A new walk starts MeterInterval after the last ended. One node
// meters a shared store: the lease holder (the owner of slot 0 in
// cluster mode), as for the orphan sweep.

// meterSamples bounds the collections per namespace per walk whose
// members are read to estimate the bytes of a member, and
// meterMembers the members read of each.
const (
	meterSamples = 32
	meterMembers = 5
	// memOverhead is what MEMORY USAGE adds to a key's length, and
	// memFraming to each member.
	memOverhead = 24
	memFraming  = 16
)

// meterWalk is a walk in progress.
type meterWalk struct {
	cursor []byte // where the next step reads; nil: the walk's start
	usage  map[uint32]*nsUsage
}

// nsUsage is one namespace's tally in a walk.
type nsUsage struct {
	keys, bytes int64
	// members counts the members of its collections; sampled and
	// sampledBytes the members read and their bytes, from at most
	// meterSamples collections.
	members, sampled, sampledBytes int64
	collections                    int
}

// total returns the namespace's estimated bytes.
func (u *nsUsage) total() int64 {
	b := u.bytes
	if u.sampled > 0 {
		b += u.members * u.sampledBytes / u.sampled
	} else {
		b += u.members * memFraming
	}
	return b
}

// MeterStep runs one step of the meter's walk and reports whether the
// walk ended (its totals stored).
func (c *Collector) MeterStep(ctx context.Context) (bool, error) {
	w := &c.meter
	if w.usage == nil {
		w.usage = map[uint32]*nsUsage{}
		if c.eng.FlushMarkers().Shared() { // another node may have flushed
			if err := c.eng.FlushMarkers().Reload(c.drv); err != nil {
				return false, err
			}
		}
	}
	start, _ := codec.MetaRange(codec.NamespaceDB(1, 0))
	if w.cursor != nil {
		start = w.cursor
	}
	_, end := codec.MetaRangeAll()
	markers := c.eng.FlushMarkers()
	now := time.Now().UnixMilli()
	done := true
	err := c.read(func(tx drivers.Txn) error {
		n := 0
		return tx.Iterate(start, end, drivers.IterOptions{}, func(k, v []byte) (bool, error) {
			if err := ctx.Err(); err != nil {
				return false, err
			}
			if n >= max(c.o.MeterBatch, 1) {
				w.cursor, done = append([]byte(nil), k...), false
				return false, nil
			}
			n++
			slot, key, err := codec.DecodeMetaKey(k)
			if err != nil {
				return false, err
			}
			m, payload, err := codec.DecodeMeta(v)
			if err != nil {
				return false, err
			}
			if m.Expired(now) || markers.Dead(int(slot), m.Version) {
				return true, nil
			}
			ns := uint32(slot) / codec.NamespaceDatabases
			u := w.usage[ns]
			if u == nil {
				u = &nsUsage{}
				w.usage[ns] = u
			}
			u.keys++
			u.bytes += int64(len(key)) + memOverhead
			switch {
			case m.Chunked:
				u.bytes += int64(m.Size)
			case m.Type.IsCollection():
				u.members += int64(m.Size)
				if u.collections < meterSamples {
					u.collections++
					if err := sampleMembers(tx, slot, key, m.Version, u); err != nil {
						return false, err
					}
				}
			default:
				u.bytes += int64(len(payload))
			}
			return true, nil
		})
	})
	if err != nil || !done {
		return false, err
	}
	err = c.storeUsage(w.usage, now)
	c.meter = meterWalk{}
	return err == nil, err
}

// sampleMembers reads up to meterMembers members of a collection version
// into u's sample.
func sampleMembers(tx drivers.Txn, slot codec.Slot, key []byte, version uint64, u *nsUsage) error {
	p := codec.SubKeyPrefix(slot, key, version)
	n := 0
	return tx.Iterate(p, codec.PrefixEnd(p), drivers.IterOptions{}, func(k, v []byte) (bool, error) {
		u.sampled++
		u.sampledBytes += int64(len(k)-len(p)+len(v)) + memFraming
		n++
		return n < meterMembers, nil
	})
}

// storeUsage writes each defined namespace's totals (zero for one with
// no key), measured at now, and removes those of namespaces no longer
// defined.
func (c *Collector) storeUsage(usage map[uint32]*nsUsage, now int64) error {
	reg, err := namespaces.Load(c.drv)
	if err != nil {
		return err
	}
	tx, err := c.drv.Begin(true)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	defined := map[uint32]bool{}
	for _, ns := range reg.All() {
		defined[ns.ID] = true
		var keys, bytes int64
		if u := usage[ns.ID]; u != nil {
			keys, bytes = u.keys, u.total()
		}
		if err := tx.Set(codec.NamespaceUsageKey(ns.ID), codec.EncodeInts(keys, bytes, now)); err != nil {
			return err
		}
	}
	p := codec.NamespaceUsagePrefix()
	var stale [][]byte
	err = tx.Iterate(p, codec.PrefixEnd(p), drivers.IterOptions{}, func(k, _ []byte) (bool, error) {
		if id, err := codec.NamespaceIDOf(p, k); err == nil && !defined[id] {
			stale = append(stale, append([]byte(nil), k...))
		}
		return true, nil
	})
	if err != nil {
		return err
	}
	for _, k := range stale {
		if err := tx.Delete(k); err != nil {
			return err
		}
	}
	return tx.Commit()
}
