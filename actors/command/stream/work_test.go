package stream

import (
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/rekv/rekv/actors/command/commandtest"
	"github.com/rekv/rekv/actors/command/keys"
	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers"
	"github.com/rekv/rekv/drivers/badger"
	"github.com/rekv/rekv/drivers/driverstest"
)

// loadStream writes an n-entry stream directly (fast): IDs i-1 for i in
// [1, n], one field.
func loadStream(t *testing.T, drv drivers.Driver, key string, n int) {
	t.Helper()
	const version = 7
	for start := 1; start <= n; start += 50_000 {
		tx, _ := drv.Begin(true)
		for i := start; i < min(n+1, start+50_000); i++ {
			f := codec.StreamEntryField(codec.StreamID{Ms: uint64(i), Seq: 1})
			v := codec.AppendStreamFields(nil, [][]byte{[]byte("f"), []byte(strconv.Itoa(i))})
			if err := tx.Set(codec.AppendSubKey(nil, 0, []byte(key), version, f), v); err != nil {
				t.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	tx, _ := drv.Begin(true)
	m := codec.Meta{Type: codec.TypeStream, Version: version, Size: uint64(n),
		Stream: codec.StreamMeta{LastID: codec.StreamID{Ms: uint64(n), Seq: 1}, EntriesAdded: uint64(n)}}
	_ = tx.Set(codec.MetaKey(0, []byte(key)), codec.AppendMeta(nil, m, nil))
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// TestStreamWorkIndependentOfLength asserts storage work, not time: XADD
// on a big stream reads and writes what it does on an empty one, XRANGE
// COUNT 10 reads about 10 entries wherever it starts, XLEN reads the
// meta. REKVTEST_STREAM_BIG sets the big stream's length (default
// 200,000; the figure is 10,000,000).
func TestStreamWorkIndependentOfLength(t *testing.T) {
	big := 200_000
	if s := os.Getenv("REKVTEST_STREAM_BIG"); s != "" {
		var err error
		if big, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	bdb, err := badger.Open(badger.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer bdb.Close()
	drv := &driverstest.Counting{Driver: bdb}
	loadStream(t, drv, "big", big)
	h := commandtest.NewWithDriver(t, drv, Commands(), keys.Commands())
	work := func(line string) (int64, int64) {
		t.Helper()
		r0, w0 := drv.Reads.Load(), drv.Writes.Load()
		if got := h.Do(line); got[0] == '-' {
			t.Fatalf("%s: %q", line, got)
		}
		r, w := drv.Reads.Load()-r0, drv.Writes.Load()-w0
		t.Logf("%-44s reads %5d writes %5d", line, r, w)
		return r, w
	}
	h.Do("xadd small 1-1 f 0")
	h.Do("xlen big") // both metas now in the shard cache, as for any hot key
	next := strconv.Itoa(big + 1)
	rs, ws := work("xadd small 2-1 f v")
	rb, wb := work("xadd big " + next + "-1 f v")
	if rs != rb || ws != wb {
		t.Fatalf("XADD on %d entries: %d reads %d writes; on 1 entry: %d reads %d writes", big, rb, wb, rs, ws)
	}
	for _, from := range []string{"-", strconv.Itoa(big / 2), strconv.Itoa(big - 5)} {
		if r, _ := work(fmt.Sprintf("xrange big %s + count 10", from)); r > 12 {
			t.Fatalf("XRANGE COUNT 10 from %s read %d entries", from, r)
		}
	}
	if r, _ := work("xlen big"); r > 1 {
		t.Fatalf("XLEN read %d", r)
	}
	if r, w := work("xtrim big maxlen ~ " + strconv.Itoa(big-150)); r > 3*(100+1) || w > 100+1 {
		t.Fatalf("XTRIM ~ removing one node: %d reads %d writes", r, w)
	}
}
