package badger

// Added for rekv (patch 0004): a transaction's commit allocates nothing
// per entry for its pending writes' keys or its versioned keys.

import (
	"fmt"
	"testing"
)

func TestCommitAllocationsPerEntry(t *testing.T) {
	db, err := Open(DefaultOptions("").WithInMemory(true).WithLogger(nil))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// commit returns the allocations of a transaction that sets n new
	// keys, its entries made beforehand, and commits.
	commit := func(n int) float64 {
		const runs = 50
		ents := make([][]*Entry, runs+1) // AllocsPerRun runs once more first
		for r := range ents {
			ents[r] = make([]*Entry, n)
			for i := range ents[r] {
				ents[r][i] = NewEntry([]byte(fmt.Sprintf("key-%d-%d-%d", n, r, i)), []byte("value"))
			}
		}
		r := 0
		return testing.AllocsPerRun(runs, func() {
			txn := db.NewTransaction(true)
			defer txn.Discard()
			for _, e := range ents[r] {
				if err := txn.SetEntry(e); err != nil {
					t.Fatal(err)
				}
			}
			r++
			if err := txn.Commit(); err != nil {
				t.Fatal(err)
			}
		})
	}
	small, big := commit(10), commit(210)
	// Before the patch, 2 allocations an entry (a string key for the
	// pending writes, a versioned key) and the maps' growth: 2.1 an
	// entry. The maps' growth remains.
	if perEntry := (big - small) / 200; perEntry > 0.5 {
		t.Fatalf("a commit allocates %.2f times an entry, want at most 0.5", perEntry)
	}
}
