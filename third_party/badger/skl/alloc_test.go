package skl

// Added for rekv (patch 0003): a put allocates nothing on the heap.

import (
	"fmt"
	"testing"

	"github.com/dgraph-io/badger/v4/y"
)

func TestPutAllocatesNothing(t *testing.T) {
	const n = 1000
	keys := make([][]byte, n+1)
	for i := range keys {
		keys[i] = y.KeyWithTs([]byte(fmt.Sprintf("key%08d", i)), 1)
	}
	l := NewSkiplist(1 << 20)
	defer l.DecrRef()
	i := 0
	allocs := testing.AllocsPerRun(n, func() {
		l.Put(keys[i], y.ValueStruct{Value: []byte("value")})
		i++
	})
	// The arena's bound checks boxed their arguments on each put: 5
	// allocations a record before.
	if allocs != 0 {
		t.Fatalf("a put allocated %.1f times, want 0", allocs)
	}
}
