package store

import (
	"math"

	"github.com/rekv/rekv/drivers"
)

// maxVersionBatch bounds the versions a transaction takes ahead at once.
const maxVersionBatch = 256

// versionPool holds versions a transaction took ahead from a driver whose
// NextVersion is a round trip (drivers.VersionBatcher: TiKV's oracle).
// Invariants:
//   - every version comes from the driver, which never returns one twice,
//     so taking versions ahead keeps them unique; ones left unused when the
//     transaction ends are dropped;
//   - they are used in increasing order, and a flush marker is never one of
//     them (freshVersion drops the pool), so a key written after a flush
//     in the same transaction is newer than its marker;
//   - they are asked for after the transaction's start timestamp (with
//     it, BeginWithVersions, or after its first read), so each is newer
//     than the flush marker it read, as a version taken at its use would
//     be: a flush committed before the start has a marker older than the
//     start. (A flush committed after it is concurrent with the
//     transaction, and may take its keys as written before the flush: a
//     linearizable order, as for a version taken at its use.)
//
// The first batch comes with the transaction's start timestamp, as many
// as the shard's recent transactions used for as many keys (rate); the
// next, if needed, is the size of the group of writes sharing the
// transaction (Prefetch counts their keys); each later one doubles, so a
// command creating many keys waits for the oracle a few times, not once
// per key.
type versionPool struct {
	ready  []uint64
	batch  int // the size of the last batch taken
	expect int // keys the transaction's commands will look up (Prefetch)
	// rate is the versions the shard's recent transactions used per key
	// they looked up (Spare): the transaction asks for rate x expect
	// with its start timestamp (ahead), so a group of SETs of new keys
	// waits for the oracle once in all, and a group of INCRs of existing
	// counters asks for none.
	rate float64
	used int // versions taken from the pool
}

// ahead is the number of versions to ask for with the start timestamp.
func (p *versionPool) ahead() int {
	return min(int(math.Ceil(p.rate*float64(max(p.expect, 1)))), maxVersionBatch)
}

// learn folds what the transaction used into rate, for the next one: up
// at once (a group short of versions waits for the oracle again), down by
// halves.
func (p *versionPool) learn(rate float64) float64 {
	now := float64(p.used) / float64(max(p.expect, 1))
	if now >= rate {
		return now
	}
	return (rate + now) / 2
}

// freshVersion returns a version newer than every one the pool holds,
// which it drops: a flush marker, above which later keys' versions must be.
func (t *Tx) freshVersion() (uint64, error) {
	t.versions.ready = nil
	return t.drv.NextVersion()
}

// nextVersion returns a version for a new key: from
// the pool when the driver batches them, else the driver's next.
func (t *Tx) nextVersion() (uint64, error) {
	p := &t.versions
	if len(p.ready) == 0 {
		b, ok := t.drv.(drivers.VersionBatcher)
		if !ok {
			return t.drv.NextVersion()
		}
		n := min(max(p.expect, 2*p.batch, 1), maxVersionBatch)
		vs, err := b.NextVersions(n)
		if err != nil {
			return 0, err
		}
		p.ready, p.batch = vs, n
	}
	v := p.ready[0]
	p.ready = p.ready[1:]
	p.used++
	return v, nil
}
