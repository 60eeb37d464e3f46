package gc_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/rekv/rekv/codec"
)

// TestHashFieldsExpireInSmallBatches: hash fields past their TTLs leave
// storage through the GC in batches smaller than the backlog, hashes left
// empty go whole, the others keep their live fields, and the hash-TTL
// index ends with one entry per hash that still has a field TTL.
func TestHashFieldsExpireInSmallBatches(t *testing.T) {
	cfg := testConfig(t, time.Hour)
	cfg.GC.BatchSize = 7
	n, c := startCfg(t, cfg, nil)
	ctx := context.Background()
	for i := 0; i < 40; i++ {
		k := fmt.Sprint("h", i)
		if err := c.HSet(ctx, k, "a", 1, "b", 2, "keep", 3).Err(); err != nil {
			t.Fatal(err)
		}
		fields := []any{"a", "b"}
		if i%2 == 0 { // even hashes: every field expires
			fields = append(fields, "keep")
		}
		args := append([]any{"HPEXPIRE", k, 30, "FIELDS", len(fields)}, fields...)
		if err := c.Do(ctx, args...).Err(); err != nil {
			t.Fatal(err)
		}
	}
	// One hash with a TTL far ahead: its entry stays.
	if err := c.Do(ctx, "HSET", "later", "x", 1).Err(); err != nil {
		t.Fatal(err)
	}
	if err := c.Do(ctx, "HEXPIRE", "later", 1000, "FIELDS", 1, "x").Err(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(60 * time.Millisecond)
	drain(t, n, 1000)
	if got := n.GCStats.FieldsExpired.Load(); got != 20*3+20*2 {
		t.Errorf("fields expired = %d, want %d", got, 20*3+20*2)
	}
	if got := c.DBSize(ctx).Val(); got != 21 {
		t.Errorf("DBSIZE = %d, want 21 (the odd hashes and later)", got)
	}
	if got := count(t, n.Driver(), codec.PrefixHashTTL); got != 1 {
		t.Errorf("%d hash-TTL entries left, want 1", got)
	}
	// The odd hashes keep one field, with no TTL record left behind;
	// later keeps its two records.
	if got := count(t, n.Driver(), codec.PrefixScore); got != 2 {
		t.Errorf("%d field TTL records left, want 2", got)
	}
	if v := c.HGetAll(ctx, "h1").Val(); len(v) != 1 || v["keep"] != "3" {
		t.Errorf("h1 = %v", v)
	}
}
