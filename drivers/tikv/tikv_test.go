package tikv

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/pingcap/kvproto/pkg/kvrpcpb"
	tikverr "github.com/tikv/client-go/v2/error"

	"github.com/rekv/rekv/drivers"
	"github.com/rekv/rekv/drivers/driverstest"
)

// conformanceTxnBytes is the transaction limit of the conformance runs:
// the suite fills a transaction until the driver refuses it, which at the
// default (1 GiB) takes half a minute under -race.
const conformanceTxnBytes = 16 << 20

func TestConformanceMock(t *testing.T) {
	driverstest.Run(t, func(t *testing.T) drivers.Driver {
		d, err := Open(Options{PD: []string{MockPD}, MaxTxnBytes: conformanceTxnBytes})
		if err != nil {
			t.Fatal(err)
		}
		return d
	})
}

// TestSharedMockNodes: two DBs on one mock see each other's commits and
// conflict with each other, as two nodes on one cluster do.
func TestSharedMockNodes(t *testing.T) {
	m, err := NewMock()
	if err != nil {
		t.Fatal(err)
	}
	a, err := m.Open(Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := m.Open(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := a.Close(); err != nil {
			t.Error(err)
		}
		if err := b.Close(); err != nil {
			t.Error(err)
		}
		if err := m.Close(); err != nil {
			t.Error(err)
		}
	}()
	ta, _ := a.Begin(true)
	tb, _ := b.Begin(true)
	if err := ta.Set([]byte("k"), []byte("a")); err != nil {
		t.Fatal(err)
	}
	if err := tb.Set([]byte("k"), []byte("b")); err != nil {
		t.Fatal(err)
	}
	if err := ta.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := tb.Commit(); err == nil {
		t.Fatal("second node's write of the same key committed too")
	}
	rb, _ := b.Begin(false)
	defer rb.Rollback()
	if v, err := rb.Get([]byte("k")); err != nil || string(v) != "a" {
		t.Fatalf("node b reads %q, %v", v, err)
	}
	va, _ := a.NextVersion()
	vb, _ := b.NextVersion()
	if vb <= va {
		t.Fatalf("versions from two nodes not ordered: %d then %d", va, vb)
	}
}

// TestConnectDeadline: an unreachable PD fails within the deadline with
// an error naming the address, instead of client-go's minutes of retries.
func TestConnectDeadline(t *testing.T) {
	start := time.Now()
	_, err := Open(Options{PD: []string{"127.0.0.1:1"}, ConnectTimeout: 2 * time.Second})
	if err == nil {
		t.Fatal("Open of an unreachable PD succeeded")
	}
	if !strings.Contains(err.Error(), "127.0.0.1:1") {
		t.Fatalf("error does not name the address: %v", err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Fatalf("Open took %v", d)
	}
}

// TestConformanceMockNamespace runs the conformance suite through a
// namespace: every key prefixed, scans bounded to the namespace.
func TestConformanceMockNamespace(t *testing.T) {
	driverstest.Run(t, func(t *testing.T) drivers.Driver {
		d, err := Open(Options{PD: []string{MockPD}, Namespace: []byte("ns/"), MaxTxnBytes: conformanceTxnBytes})
		if err != nil {
			t.Fatal(err)
		}
		return d
	})
}

// TestNamespacesApart: two DBs on one cluster in different namespaces
// see only their own keys, in every kind of scan, and a namespace of
// 0xff is refused.
func TestNamespacesApart(t *testing.T) {
	m, err := NewMock()
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	open := func(ns string) *DB {
		d, err := m.Open(Options{Namespace: []byte(ns)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = d.Close() })
		return d
	}
	a, b, root := open("a/"), open("a0"), open("")
	for _, w := range []struct {
		d    *DB
		keys []string
	}{{a, []string{"k1", "k2", "\xff\xff"}}, {b, []string{"k1", "x"}}} {
		tx, _ := w.d.Begin(true)
		for _, k := range w.keys {
			if err := tx.Set([]byte(k), []byte("v")); err != nil {
				t.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	scan := func(d *DB, start, end []byte, reverse bool) string {
		tx, _ := d.Begin(false)
		defer tx.Rollback()
		var got []string
		err := tx.Iterate(start, end, drivers.IterOptions{Reverse: reverse}, func(k, _ []byte) (bool, error) {
			got = append(got, string(k))
			return true, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(got, ",")
	}
	for _, c := range []struct {
		d           *DB
		start, end  string
		nilEnd, rev bool
		want        string
	}{
		{d: a, nilEnd: true, want: "k1,k2,\xff\xff"},
		{d: a, nilEnd: true, rev: true, want: "\xff\xff,k2,k1"},
		{d: a, start: "k2", end: "z", want: "k2"},
		{d: b, nilEnd: true, want: "k1,x"},
		{d: b, nilEnd: true, rev: true, want: "x,k1"},
		{d: root, start: "a", end: "b", want: "a/k1,a/k2,a/\xff\xff,a0k1,a0x"},
	} {
		var end []byte
		if !c.nilEnd {
			end = []byte(c.end)
		}
		if got := scan(c.d, []byte(c.start), end, c.rev); got != c.want {
			t.Errorf("scan %q..%q rev=%v in %q: %q, want %q", c.start, c.end, c.rev, c.d.opts.Namespace, got, c.want)
		}
	}
	tx, _ := b.Begin(false)
	if _, err := tx.Get([]byte("k2")); err != drivers.ErrNotFound {
		t.Errorf("b sees a's k2: %v", err)
	}
	if vs, err := tx.BatchGet([][]byte{[]byte("k1"), []byte("k2")}); err != nil || vs[0] == nil || vs[1] != nil {
		t.Errorf("BatchGet in b: %q %v", vs, err)
	}
	tx.Rollback()
	if _, err := m.Open(Options{Namespace: []byte{0xff, 'x'}}); err != ErrNamespace {
		t.Errorf("namespace 0xff: %v", err)
	}
}

// TestConformanceNetwork runs the conformance suite on the network
// cluster of ../shared/tikv when REKVTEST_TIKV_PD names its PD, each case
// in a namespace of its own (the cluster is shared by every case; keys
// from byte 0xff on are the store's, and inside a namespace rekv never
// reaches them).
func TestConformanceNetwork(t *testing.T) {
	pd := os.Getenv("REKVTEST_TIKV_PD")
	if pd == "" {
		t.Skip("REKVTEST_TIKV_PD not set: no network TiKV cluster to test against")
	}
	n := 0
	run := time.Now().UnixNano()
	driverstest.Run(t, func(t *testing.T) drivers.Driver {
		n++
		d, err := Open(Options{PD: strings.Split(pd, ","), Namespace: []byte(fmt.Sprintf("conformance/%d/%d/", run, n)),
			MaxTxnBytes: conformanceTxnBytes})
		if err != nil {
			t.Fatal(err)
		}
		return d
	})
}

// TestCommitErrorsClassified: a commit that failed on a conflict or a size
// limit was not applied; any other failure may have come after it was, so
// it is ErrUndetermined (the engine must not run the commands again); a
// call whose context ended is ErrUnavailable whatever client-go returned.
func TestCommitErrorsClassified(t *testing.T) {
	conflict := &tikverr.ErrWriteConflict{WriteConflict: &kvrpcpb.WriteConflict{}}
	for _, tc := range []struct {
		name string
		err  error
		want error
	}{
		{"conflict", conflict, drivers.ErrConflict},
		{"too big", &tikverr.ErrTxnTooLarge{Size: 1}, drivers.ErrTxnTooBig},
		{"undetermined", tikverr.ErrResultUndetermined, drivers.ErrUndetermined},
		{"region unavailable", tikverr.ErrRegionUnavailable, drivers.ErrUndetermined},
		{"anything else", errors.New("rpc error: store gone"), drivers.ErrUndetermined},
	} {
		if got := committed(tc.err); !errors.Is(got, tc.want) {
			t.Errorf("%s: committed(%v) = %v, want %v", tc.name, tc.err, got, tc.want)
		}
	}
	if err := committed(nil); err != nil {
		t.Errorf("committed(nil) = %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := wrapIn(ctx, errors.New(`loadRegion from PD failed, err: context canceled`)); !errors.Is(err, drivers.ErrUnavailable) {
		t.Errorf("an error after the context ended: %v, want ErrUnavailable", err)
	}
	if err := wrapIn(context.Background(), errors.New("disk on fire")); errors.Is(err, drivers.ErrUnavailable) {
		t.Errorf("an error with the context live: %v, should not be ErrUnavailable", err)
	}
	if err := wrap(tikverr.ErrRegionUnavailable); !errors.Is(err, drivers.ErrUnavailable) {
		t.Errorf("region unavailable: %v, want ErrUnavailable", err)
	}
}

// TestFence: with a fence behind PD's clock a write does not commit
// (ErrFenced) and leaves nothing; ahead of it, or exempted, it commits.
func TestFence(t *testing.T) {
	d, err := Open(Options{PD: []string{MockPD}})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var until int64
	d.SetFence(func() int64 { return until })
	write := func(key string, exempt bool) error {
		tx, err := d.Begin(true)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		if exempt {
			drivers.Unfence(tx)
		}
		if start := tx.(drivers.Clocked).StartMillis(); start < time.Now().Add(-time.Minute).UnixMilli() {
			t.Fatalf("StartMillis %d is not PD's unix ms", start)
		}
		if err := tx.Set([]byte(key), []byte("v")); err != nil {
			t.Fatal(err)
		}
		return tx.Commit()
	}
	read := func(key string) bool {
		tx, _ := d.Begin(false)
		defer tx.Rollback()
		_, err := tx.Get([]byte(key))
		return err == nil
	}
	until = time.Now().Add(-time.Second).UnixMilli()
	if err := write("late", false); !errors.Is(err, drivers.ErrFenced) {
		t.Fatalf("commit past the fence: %v, want ErrFenced", err)
	}
	if read("late") {
		t.Fatal("a fenced commit wrote its key")
	}
	if err := write("exempt", true); err != nil || !read("exempt") {
		t.Fatalf("exempt commit past the fence: %v", err)
	}
	until = time.Now().Add(time.Minute).UnixMilli()
	if err := write("early", false); err != nil || !read("early") {
		t.Fatalf("commit before the fence: %v", err)
	}
	until = 0
	if err := write("none", false); err != nil {
		t.Fatalf("commit without a fence: %v", err)
	}
}
