package integration

import (
	"context"
	stdnet "net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestConfigSetPortAndBind: CONFIG SET port and bind move the listener at
// run time as Redis 7.0 does — the new address serves, the old one no
// longer does, connections already open stay — and a listen that fails
// changes nothing.
func TestConfigSetPortAndBind(t *testing.T) {
	n := startNode(t, "badger", nil)
	ctx := context.Background()
	old := n.Addr()
	_, oldPort, _ := stdnet.SplitHostPort(old)
	c := newClient(t, old, 2)
	must(t, c.Set(ctx, "k", "v", 0).Err())
	serves := func(addr string) bool {
		cl := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1, DialTimeout: 2 * time.Second, ReadTimeout: 2 * time.Second})
		defer cl.Close()
		v, err := cl.Get(ctx, "k").Result()
		return err == nil && v == "v"
	}
	p2 := freePort(t)
	must(t, c.ConfigSet(ctx, "port", strconv.Itoa(p2)).Err())
	must(t, c.Ping(ctx).Err()) // the connection that asked stays
	newAddr := "127.0.0.1:" + strconv.Itoa(p2)
	if !serves(newAddr) {
		t.Fatal("the new port does not serve")
	}
	if serves(old) {
		t.Fatal("the old port still serves")
	}
	if got := c.ConfigGet(ctx, "port").Val()["port"]; got != strconv.Itoa(p2) {
		t.Fatalf("CONFIG GET port = %q", got)
	}
	if info := c.Info(ctx, "server").Val(); !strings.Contains(info, "tcp_port:"+strconv.Itoa(p2)+"\r\n") {
		t.Fatal("INFO tcp_port is not the new port")
	}
	// A port in use: refused, nothing changes.
	busy, err := stdnet.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	_, busyPort, _ := stdnet.SplitHostPort(busy.Addr().String())
	err = c.ConfigSet(ctx, "port", busyPort).Err()
	if err == nil || err.Error() != "ERR CONFIG SET failed (possibly related to argument 'port') - Unable to listen on this port" {
		t.Fatalf("CONFIG SET port of a port in use: %v", err)
	}
	if !serves(newAddr) {
		t.Fatal("a failed CONFIG SET port stopped the current port")
	}
	// bind: an optional address that cannot be bound is skipped; a
	// required one fails the whole change.
	must(t, c.ConfigSet(ctx, "bind", "127.0.0.1 -192.0.2.1").Err())
	if !serves(newAddr) {
		t.Fatal("bind with an optional address lost the listener")
	}
	err = c.ConfigSet(ctx, "bind", "192.0.2.1").Err()
	if err == nil || err.Error() != "ERR CONFIG SET failed (possibly related to argument 'bind') - Failed to bind to specified addresses." {
		t.Fatalf("CONFIG SET bind of a foreign address: %v", err)
	}
	if !serves(newAddr) {
		t.Fatal("a failed CONFIG SET bind stopped the listener")
	}
	// Back to the first port: gnet's own listener serves again, the
	// second is closed.
	must(t, c.ConfigSet(ctx, "port", oldPort).Err())
	if !serves(old) {
		t.Fatal("the first port does not serve again")
	}
	if serves(newAddr) {
		t.Fatal("the second port still serves")
	}
	must(t, c.Ping(ctx).Err())
}
