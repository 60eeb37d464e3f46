package table

// Added for rekv (patch 0002): the workers that compress a table's blocks
// yield their P between blocks.

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/dgraph-io/badger/v4/options"
	"github.com/dgraph-io/badger/v4/y"
)

func TestBlockWorkersYield(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var turns atomic.Int64
	done, exited := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(exited)
		for {
			select {
			case <-done:
				return
			default:
			}
			turns.Add(1)
			runtime.Gosched()
		}
	}()
	defer func() { close(done); <-exited }()
	for turns.Load() == 0 { // the probe has started
		runtime.Gosched()
	}
	before := turns.Load()
	b := NewTableBuilder(Options{BlockSize: 4 << 10, BloomFalsePositive: 0.01, Compression: options.Snappy})
	defer b.Close()
	const keys = 20000
	for i := 0; i < keys; i++ {
		b.Add(y.KeyWithTs([]byte(fmt.Sprintf("key%08d", i)), 1), y.ValueStruct{Value: []byte("value")}, 0)
	}
	b.Done()
	got := turns.Load() - before
	blocks := int64(len(b.blockList))
	// Each of the workers yields once a block, and the probe gets a turn
	// in a few of those yields: 35 turns for 133 blocks; 1 without them.
	if got < blocks/8 {
		t.Fatalf("a goroutine beside the compression of %d blocks ran %d times, want at least %d", blocks, got, blocks/8)
	}
}
