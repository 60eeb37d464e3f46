package badger

import "testing"

// TestFit: what Badger allocates whole shrinks to the room a small
// volume has, and stays as configured on a big one.
func TestFit(t *testing.T) {
	const mib = 1 << 20
	for _, tc := range []struct {
		room               int64
		vlog, mem, minFree int64 // configured
		wantVlog, wantMem  int64
		wantMinFree        int64
		changed            bool
	}{
		// rekv's defaults on a 64 MiB volume: 2 MiB value-log files, 1
		// MiB memtables, 12 MiB free kept (the next two allocations).
		{64 * mib, 64 * mib, 16 * mib, 256 * mib, 2 * mib, 1 * mib, 12 * mib, true},
		// A 1 GiB volume: 32 MiB value-log files, 16 MiB memtables, 192
		// MiB free kept (twice a value-log file and a memtable's log).
		{1024 * mib, 64 * mib, 16 * mib, 256 * mib, 32 * mib, 16 * mib, 192 * mib, true},
		// A big volume keeps the configuration.
		{100 * 1024 * mib, 64 * mib, 16 * mib, 256 * mib, 64 * mib, 16 * mib, 256 * mib, false},
		// Badger's defaults (0) count as theirs; no minimum stays none.
		{16 * mib, 0, 0, 0, 1 * mib, 1 * mib, 0, true},
	} {
		o := Options{ValueLogFileSize: tc.vlog, MemTableSize: tc.mem, MinFreeBytes: tc.minFree}
		changed := o.fit(tc.room)
		if changed != tc.changed || changed && (o.ValueLogFileSize != tc.wantVlog || o.MemTableSize != tc.wantMem || o.MinFreeBytes != tc.wantMinFree) {
			t.Errorf("room %d MiB: changed %v, value log %d, memtable %d, min free %d (MiB); want %v, %d, %d, %d",
				tc.room/mib, changed, o.ValueLogFileSize/mib, o.MemTableSize/mib, o.MinFreeBytes/mib,
				tc.changed, tc.wantVlog/mib, tc.wantMem/mib, tc.wantMinFree/mib)
		}
	}
}
