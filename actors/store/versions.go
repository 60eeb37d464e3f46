package store

import "github.com/rekv/rekv/drivers"

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
//   - they are taken after the transaction
//     began when its first use follows a read (as a new key's version
//     always does), so each is newer than the flush marker it read, as a
//     version taken at its use would be.
//
// The first batch is the size of the group of writes sharing the
// transaction (Prefetch counts their keys); each later one doubles, so a
// command creating many keys waits for the oracle a few times, not once
// per key.
type versionPool struct {
	ready  []uint64
	batch  int // the size of the last batch taken
	expect int // keys the transaction's commands will look up (Prefetch)
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
	return v, nil
}
