package gc

import (
	"testing"
	"time"

	"github.com/rekv/rekv/drivers/badger"
)

// TestLeaseOneHolderAtATime: of two nodes, the first to ask holds the
// lease; the other gets it only once the holder stops renewing and the
// term runs out; renewal at half term keeps it.
func TestLeaseOneHolderAtATime(t *testing.T) {
	drv, err := badger.Open(badger.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer drv.Close()
	now := time.Unix(1_000_000, 0)
	clock := func() time.Time { return now }
	a := &Lease{Owner: "a", Term: 10 * time.Second, Now: clock}
	b := &Lease{Owner: "b", Term: 10 * time.Second, Now: clock}
	hold := func(l *Lease, want bool) {
		t.Helper()
		got, err := l.Hold(drv)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("at +%v: %s holds = %v, want %v", now.Sub(time.Unix(1_000_000, 0)), l.Owner, got, want)
		}
	}
	hold(a, true)
	hold(b, false)
	now = now.Add(6 * time.Second) // past half term: a renews until +16s
	hold(a, true)
	now = now.Add(5 * time.Second) // +11s: a's first term is over, the renewal holds
	hold(b, false)
	now = now.Add(6 * time.Second) // +17s: a stopped renewing
	hold(b, true)
	hold(a, false)
	hold(b, true)
}
