package integration

import (
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

// TestKillReplicaLink: a connection that sent SYNC is a replica's link:
// CLIENT LIST shows it with flag S under TYPE replica, and CLIENT KILL
// TYPE replica (or slave) closes it with an orderly end of stream, as
// redis-cli --replica expects ("Server closed the connection"). On
// redis-server and rekv on Badger (a node on a shared store serves no
// replica).
func TestKillReplicaLink(t *testing.T) {
	servers := map[string]string{"redis": redisServer(t), "rekv": startDebugNode(t, "badger").Addr()}
	for who, a := range servers {
		c, r := dialRaw(t, a), dialRaw(t, a)
		r.write(encode("SYNC"))
		deadline := time.Now().Add(10 * time.Second)
		for !strings.Contains(c.do("CLIENT", "LIST", "TYPE", "replica"), "flags=S ") {
			if time.Now().After(deadline) {
				t.Fatalf("%s: no replica in CLIENT LIST: %q", who, c.do("CLIENT", "LIST"))
			}
			time.Sleep(10 * time.Millisecond)
		}
		if got := c.do("CLIENT", "KILL", "TYPE", "slave"); got != ":1\r\n" {
			t.Fatalf("%s: CLIENT KILL TYPE slave = %q", who, got)
		}
		_ = r.conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		_, err := io.Copy(io.Discard, r.r) // what the link sent, to its end
		if err != nil && !errors.Is(err, io.EOF) {
			t.Errorf("%s: the killed link ended with %v, want an orderly close", who, err)
		}
		if got := c.do("CLIENT", "LIST", "TYPE", "replica"); got != "$0\r\n\r\n" {
			t.Errorf("%s: CLIENT LIST TYPE replica after the kill = %q", who, got)
		}
	}
}
