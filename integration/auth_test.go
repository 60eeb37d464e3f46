package integration

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rekv/rekv/conf"
)

// TestRequirePass checks NOAUTH gating, AUTH in its forms, HELLO AUTH, and
// that go-redis (which authenticates with HELLO) works with a password.
func TestRequirePass(t *testing.T) {
	n := startNode(t, "badger", func(c *conf.Config) { c.Server.RequirePass = "s3cret" })
	r := dialRaw(t, n.Addr())
	for _, c := range []struct {
		cmd  []string
		want string
	}{
		{[]string{"PING"}, "-NOAUTH Authentication required.\r\n"},
		{[]string{"SET", "k", "v"}, "-NOAUTH Authentication required.\r\n"},
		{[]string{"INFO"}, "-NOAUTH Authentication required.\r\n"},
		{[]string{"HELLO", "3"}, "-NOAUTH HELLO must be called with the client already authenticated, otherwise the HELLO AUTH <user> <pass> option can be used to authenticate the client and select the RESP protocol version at the same time\r\n"},
		{[]string{"HELLO", "3", "AUTH", "default", "wrong"}, "-WRONGPASS invalid username-password pair or user is disabled.\r\n"},
		{[]string{"AUTH", "wrong"}, "-WRONGPASS invalid username-password pair or user is disabled.\r\n"},
		{[]string{"AUTH", "other", "s3cret"}, "-WRONGPASS invalid username-password pair or user is disabled.\r\n"},
		{[]string{"AUTH", "a", "b", "c"}, "-ERR syntax error\r\n"},
		{[]string{"AUTH", "s3cret"}, "+OK\r\n"},
		{[]string{"SET", "k", "v"}, "+OK\r\n"},
	} {
		if got := r.do(c.cmd...); got != c.want {
			t.Fatalf("%v = %q, want %q", c.cmd, got, c.want)
		}
	}
	r2 := dialRaw(t, n.Addr())
	if got := r2.do("AUTH", "default", "s3cret"); got != "+OK\r\n" {
		t.Fatalf("AUTH default = %q", got)
	}
	r3 := dialRaw(t, n.Addr())
	r3.write(encode("QUIT"))
	if got := r3.reply(); got != "+OK\r\n" {
		t.Fatalf("QUIT before AUTH = %q", got)
	}
	_ = r3.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := r3.r.ReadByte(); err != io.EOF {
		t.Fatalf("after QUIT: %v", err)
	}
	ctx := context.Background()
	for _, proto := range []int{2, 3} {
		c := redis.NewClient(&redis.Options{Addr: n.Addr(), Protocol: proto, Password: "s3cret"})
		if v, err := c.Get(ctx, "k").Result(); err != nil || v != "v" {
			t.Fatalf("go-redis RESP%d with password: %q %v", proto, v, err)
		}
		c.Close()
		bad := redis.NewClient(&redis.Options{Addr: n.Addr(), Protocol: proto, Password: "nope", MaxRetries: -1})
		if err := bad.Ping(ctx).Err(); err == nil {
			t.Fatalf("go-redis RESP%d with a wrong password connected", proto)
		}
		bad.Close()
	}
}

// TestIdleTimeout checks idle clients are closed after server.timeout while
// busy ones stay.
func TestIdleTimeout(t *testing.T) {
	n := startNode(t, "badger", func(c *conf.Config) { c.Server.Timeout = 1 })
	idle := dialRaw(t, n.Addr())
	busy := dialRaw(t, n.Addr())
	if got := idle.do("PING"); got != "+PONG\r\n" {
		t.Fatal(got)
	}
	for i := 0; i < 6; i++ { // 3 s of activity on busy
		if got := busy.do("PING"); got != "+PONG\r\n" {
			t.Fatalf("busy client: %q", got)
		}
		time.Sleep(500 * time.Millisecond)
	}
	_ = idle.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := idle.r.ReadByte(); err != io.EOF {
		t.Fatalf("idle client not closed: %v", err)
	}
	if got := busy.do("CONFIG", "GET", "timeout"); got != "*2\r\n$7\r\ntimeout\r\n$1\r\n1\r\n" {
		t.Fatalf("CONFIG GET timeout = %q", got)
	}
}
