package badger

// Added for rekv (patch 0002): a memtable's flush and a compaction yield
// their P as they go, so on one P the goroutines serving clients run in
// between instead of waiting for Go's 10 ms preemption.

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dgraph-io/badger/v4/options"
	"github.com/dgraph-io/badger/v4/skl"
	"github.com/dgraph-io/badger/v4/table"
	"github.com/dgraph-io/badger/v4/y"
)

// probe runs a goroutine that counts its turns on the P until stop.
func probe() (turns func() int64, stop func()) {
	var n atomic.Int64
	done := make(chan struct{})
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		for {
			select {
			case <-done:
				return
			default:
			}
			n.Add(1)
			runtime.Gosched()
		}
	}()
	for n.Load() == 0 { // it has started
		runtime.Gosched()
	}
	return n.Load, func() { close(done); <-exited }
}

// onOneP runs f with GOMAXPROCS 1 and returns the turns another runnable
// goroutine got while f ran.
func onOneP(f func()) int64 {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	turns, stop := probe()
	defer stop()
	before := turns()
	f()
	return turns() - before
}

const yieldKeys = 20000

func yieldKey(i int) []byte { return y.KeyWithTs([]byte(fmt.Sprintf("key%08d", i)), 1) }

func TestFlushYields(t *testing.T) {
	sl := skl.NewSkiplist(16 << 20)
	defer sl.DecrRef()
	for i := 0; i < yieldKeys; i++ {
		sl.Put(yieldKey(i), y.ValueStruct{Value: []byte("value")})
	}
	opts := table.Options{BlockSize: 4 << 10, BloomFalsePositive: 0.01, Compression: options.None}
	var b *table.Builder
	got := onOneP(func() { b = buildL0Table(sl.NewUniIterator(false), nil, opts) })
	defer b.Close()
	// One turn a yield, about: 151 turns for 156 yields; none without.
	if want := int64(yieldKeys / yieldEvery / 2); got < want {
		t.Fatalf("a goroutine beside the flush of %d keys ran %d times, want at least %d", yieldKeys, got, want)
	}
}

func TestCompactionYields(t *testing.T) {
	opt := DefaultOptions("").WithInMemory(true).WithLogger(nil).WithCompression(options.None).
		WithMemTableSize(1 << 20).WithValueThreshold(1 << 10).WithNumCompactors(0).WithNumLevelZeroTables(1)
	db, err := Open(opt)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// Keys written over several memtables, flushed to level 0 as
	// several tables for Flatten to merge.
	value := make([]byte, 100)
	wb := db.NewWriteBatch()
	for i := 0; i < yieldKeys; i++ {
		if err := wb.Set(yieldKey(i)[:11], value); err != nil {
			t.Fatal(err)
		}
	}
	if err := wb.Flush(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for db.lc.levels[0].numTables() < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("level 0 holds %d tables, want 2 or more", db.lc.levels[0].numTables())
		}
		time.Sleep(10 * time.Millisecond)
	}
	got := onOneP(func() {
		if err := db.Flatten(1); err != nil {
			t.Error(err)
		}
	})
	// 121-123 turns; one without the yields.
	if want := int64(yieldKeys / yieldEvery / 2); got < want {
		t.Fatalf("a goroutine beside the compaction of %d keys ran %d times, want at least %d", yieldKeys, got, want)
	}
}
