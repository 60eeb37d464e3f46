package store

import (
	"github.com/rekv/rekv/drivers"
)

// flushChunk bounds the keys deleted per transaction by DeleteRange.
const flushChunk = 4096

// DeleteRange deletes every key in [start, end) in transactions of bounded
// size. The caller holds every shard that owns keys in the range and purges
// their caches afterwards.
func DeleteRange(drv drivers.Driver, start, end []byte) error {
	return DeleteRangeIf(drv, start, end, nil)
}

// DeleteRangeIf is DeleteRange for the keys keep reports true for (all if
// keep is nil); each transaction examines at most a bounded number of keys.
func DeleteRangeIf(drv drivers.Driver, start, end []byte, keep func(key []byte) bool) error {
	for {
		txn, err := drv.Begin(true)
		if err != nil {
			return err
		}
		n := 0
		var last []byte
		err = txn.Iterate(start, end, drivers.IterOptions{Limit: flushChunk}, func(k, _ []byte) (bool, error) {
			n++
			last = append(last[:0], k...)
			if keep != nil && !keep(k) {
				return true, nil
			}
			return true, txn.Delete(k)
		})
		if err == nil {
			err = txn.Commit()
		}
		if err != nil {
			txn.Rollback()
			return err
		}
		if n < flushChunk {
			return nil
		}
		start = append(append([]byte(nil), last...), 0)
	}
}
