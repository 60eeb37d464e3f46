package integration

import (
	"context"
	"testing"

	"github.com/rekv/rekv/conf"
)

const counterLib = "#!lua name=counters\n" +
	"redis.register_function('bump', function(keys, args) return redis.call('INCRBY', keys[1], args[1]) end)"

// TestFunctionsSurviveRestart: a library loaded with FUNCTION LOAD is in
// storage: after a restart on the same directory FCALL finds it, and
// FUNCTION DUMP / RESTORE carry it to another server.
func TestFunctionsSurviveRestart(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	onDir := func(c *conf.Config) { c.Storage.Badger.Dir = dir }
	first := startNode(t, "badger", onDir)
	c := newClient(t, first.Addr(), 2)
	if name, err := c.FunctionLoad(ctx, counterLib).Result(); err != nil || name != "counters" {
		t.Fatalf("FUNCTION LOAD = %q %v", name, err)
	}
	if n, err := c.FCall(ctx, "bump", []string{"n"}, 5).Int(); err != nil || n != 5 {
		t.Fatalf("FCALL = %d %v", n, err)
	}
	dump, err := c.FunctionDump(ctx).Result()
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	if err := first.Close(ctx); err != nil {
		t.Fatal(err)
	}
	second := startNode(t, "badger", onDir)
	c2 := newClient(t, second.Addr(), 3)
	if n, err := c2.FCall(ctx, "bump", []string{"n"}, 2).Int(); err != nil || n != 7 {
		t.Fatalf("FCALL after restart = %d %v", n, err)
	}
	other := newClient(t, startNode(t, "badger", nil).Addr(), 2)
	if err := other.FunctionRestore(ctx, dump).Err(); err != nil {
		t.Fatal(err)
	}
	if n, err := other.FCall(ctx, "bump", []string{"m"}, 1).Int(); err != nil || n != 1 {
		t.Fatalf("FCALL after RESTORE = %d %v", n, err)
	}
	if err := other.FunctionRestore(ctx, dump[:len(dump)-1]+"x").Err(); err == nil || err.Error() != "ERR payload version or checksum are wrong" {
		t.Fatalf("RESTORE of a corrupt payload: %v", err)
	}
}

// TestFunctionsAcrossNodes: on a shared TiKV, a library loaded on one node
// is called on the others, and a replacement or deletion is seen there.
func TestFunctionsAcrossNodes(t *testing.T) {
	ctx := context.Background()
	addrs := startCluster(t, 3)
	a, b, c := newClient(t, addrs[0], 2), newClient(t, addrs[1], 2), newClient(t, addrs[2], 3)
	if err := a.FunctionLoad(ctx, counterLib).Err(); err != nil {
		t.Fatal(err)
	}
	if n, err := b.FCall(ctx, "bump", []string{"x"}, 1).Int(); err != nil || n != 1 {
		t.Fatalf("FCALL on node b = %d %v", n, err)
	}
	if n, err := c.FCall(ctx, "bump", []string{"x"}, 1).Int(); err != nil || n != 2 {
		t.Fatalf("FCALL on node c = %d %v", n, err)
	}
	replaced := "#!lua name=counters\nredis.register_function('bump', function(keys, args) return 'v2' end)"
	if err := c.FunctionLoadReplace(ctx, replaced).Err(); err != nil {
		t.Fatal(err)
	}
	if v, err := b.FCall(ctx, "bump", []string{"x"}, 1).Text(); err != nil || v != "v2" {
		t.Fatalf("FCALL on node b after REPLACE on c = %q %v", v, err)
	}
	if err := b.FunctionDelete(ctx, "counters").Err(); err != nil {
		t.Fatal(err)
	}
	if err := a.FCall(ctx, "bump", []string{"x"}, 1).Err(); err == nil || err.Error() != "ERR Function not found" {
		t.Fatalf("FCALL on node a after DELETE on b: %v", err)
	}
}
