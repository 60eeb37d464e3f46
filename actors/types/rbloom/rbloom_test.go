package rbloom_test

import (
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/rekv/rekv/actors/store/storetest"
	"github.com/rekv/rekv/actors/types/rbloom"
)

// A sub-filter is sized as RedisBloom sizes it: the defaults (100 items,
// 1%, scaling: 0.5%) make 144 bytes and 8 hashes, which BF.INFO reports
// as 240 bytes (redis.io's example).
func TestChainSizes(t *testing.T) {
	c, err := rbloom.NewChain(100, 0.01, 2, false)
	if err != nil {
		t.Fatal(err)
	}
	l := c.Links[0]
	if l.Bytes != 144 || l.Bits != 1152 || l.Hashes != 8 || l.Capacity != 100 || l.Error != 0.005 || c.MemUsage() != 240 {
		t.Fatalf("default chain: %+v, %d bytes", l, c.MemUsage())
	}
	nc, _ := rbloom.NewChain(1000, 0.001, 2, true)
	if l := nc.Links[0]; l.Error != 0.001 || l.Hashes != 10 || l.Bytes != 1800 {
		t.Fatalf("non-scaling chain: %+v", l)
	}
	for _, bad := range []struct {
		capacity uint64
		e        float64
	}{{0, 0.01}, {10, 0}, {10, 1}, {10, -1}} {
		if _, err := rbloom.NewChain(bad.capacity, bad.e, 2, false); err == nil {
			t.Errorf("capacity %d error %v: made a chain", bad.capacity, bad.e)
		}
	}
	// The header round-trips, and a corrupt one is refused (RedisBloom's
	// test zeroes bytes 72-79, inside the second sub-filter's sizes).
	c.Links = append(c.Links, c.Links[0])
	c.Links[1].Items, c.Items = 3, 3
	enc := c.Encode()
	got, err := rbloom.DecodeChain(enc)
	if err != nil || fmt.Sprint(got) != fmt.Sprint(c) {
		t.Fatalf("decoded %+v (%v), want %+v", got, err, c)
	}
	bad := append([]byte(nil), enc...)
	for i := 72; i < 80; i++ {
		bad[i] = 0
	}
	if _, err := rbloom.DecodeChain(bad); err == nil {
		t.Error("a header with a zeroed sub-filter size decoded")
	}
	bad = append([]byte(nil), enc...)
	bad[12] = 0xff // options
	if _, err := rbloom.DecodeChain(bad); err == nil {
		t.Error("a header with unknown options decoded")
	}
	if _, err := rbloom.DecodeChain(enc[:len(enc)-1]); err == nil {
		t.Error("a cut header decoded")
	}
}

// fpItems is how many items the false-positive test adds and then
// probes (REKVTEST_BLOOM_ITEMS; 1,000,000 by default, 200,000 under the
// race detector).
func fpItems(t *testing.T) int {
	if s := os.Getenv("REKVTEST_BLOOM_ITEMS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if raceEnabled {
		return 200_000
	}
	return 1_000_000
}

// False positives stay within the error rate asked, for a filter reserved
// at its size and for one that scaled from a tenth of it (RedisBloom
// halves each new sub-filter's rate so the sum stays under it), with no
// false negative.
func TestFalsePositiveRate(t *testing.T) {
	n := fpItems(t)
	for _, c := range []struct {
		name     string
		capacity uint64
		e        float64
	}{{"reserved", uint64(n), 0.01}, {"scaled from a tenth", uint64(n / 10), 0.01}, {"0.1%", uint64(n), 0.001}} {
		t.Run(c.name, func(t *testing.T) {
			st := storetest.New(t)
			tx := st.Begin()
			chain, err := rbloom.NewChain(c.capacity, c.e, 2, false)
			if err != nil {
				t.Fatal(err)
			}
			f, err := rbloom.Create(tx, []byte("f"), chain)
			if err != nil {
				t.Fatal(err)
			}
			for i := range n {
				if _, err := f.Add([]byte("member:" + strconv.Itoa(i))); err != nil {
					t.Fatal(err)
				}
			}
			for i := 0; i < n; i += 97 {
				if ok, _ := f.Exists([]byte("member:" + strconv.Itoa(i))); !ok {
					t.Fatalf("member %d not found", i)
				}
			}
			fp := 0
			for i := range n {
				if ok, _ := f.Exists([]byte("other:" + strconv.Itoa(i))); ok {
					fp++
				}
			}
			rate := float64(fp) / float64(n)
			t.Logf("%d items, %d sub-filters, %d added: false-positive rate %.5f (asked %v)",
				n, len(f.Chain.Links), f.Chain.Items, rate, c.e)
			if rate > c.e {
				t.Fatalf("false-positive rate %.5f over %v", rate, c.e)
			}
			if missed := uint64(n) - f.Chain.Items; missed > uint64(float64(n)*c.e) {
				t.Fatalf("%d items reported present before they were added", missed)
			}
		})
	}
}

// SCANDUMP chunks, whatever their size, load back into the same bits;
// a filter's bits persist across transactions.
func TestScanDumpLoadChunk(t *testing.T) {
	st := storetest.New(t)
	tx := st.Begin()
	chain, _ := rbloom.NewChain(50, 0.01, 2, false)
	f, _ := rbloom.Create(tx, []byte("f"), chain)
	for i := range 400 {
		if _, err := f.Add([]byte(strconv.Itoa(i))); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Flush(); err != nil {
		t.Fatal(err)
	}
	st.Commit(tx)

	tx = st.Begin()
	f, err := rbloom.Open(tx, []byte("f"))
	if err != nil || f == nil || f.Chain.Items < 390 || len(f.Chain.Links) < 3 {
		t.Fatalf("reopened: %+v %v", f, err)
	}
	for _, max := range []uint64{1, 100, 512, 1 << 20} {
		iter, hdr, err := f.ScanDump(0, max)
		if err != nil || iter != 1 {
			t.Fatal(iter, err)
		}
		chain, err := rbloom.DecodeChain(hdr)
		if err != nil {
			t.Fatal(err)
		}
		key := []byte(fmt.Sprint("copy", max))
		g, err := rbloom.Create(tx, key, chain)
		if err != nil {
			t.Fatal(err)
		}
		var total uint64
		for {
			next, data, err := f.ScanDump(iter, max)
			if err != nil {
				t.Fatal(err)
			}
			if next == 0 {
				break
			}
			total += uint64(len(data))
			if err := g.LoadChunk(next, data); err != nil {
				t.Fatalf("chunk at %d: %v", next, err)
			}
			iter = next
		}
		if total != f.Chain.TotalBytes() {
			t.Fatalf("dumped %d bytes of %d", total, f.Chain.TotalBytes())
		}
		for l := range f.Chain.Links {
			a, _ := f.Bits(l)
			b, _ := g.Bits(l)
			if string(a) != string(b) {
				t.Fatalf("max %d: sub-filter %d differs", max, l)
			}
		}
	}
	if err := f.LoadChunk(5, make([]byte, 10)); err == nil {
		t.Error("a chunk ending before its own start loaded")
	}
	if err := f.LoadChunk(int64(f.Chain.TotalBytes())+100, []byte("x")); err == nil {
		t.Error("a chunk past the end loaded")
	}
	st.Commit(tx)
}
