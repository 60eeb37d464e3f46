package integration

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/conf"
	"github.com/rekv/rekv/node"
)

// slowCommand is rekvtest-slow key value: it runs 500 ms on the store
// (in place on the event loop when the shards are idle, as a SET too big
// for one store transaction does for seconds) and sets key to "ok".
func slowCommand() *command.Spec {
	return &command.Spec{Name: "rekvtest-slow", Arity: 3, Flags: command.Write, Keys: command.KeySpec{First: 1, Last: 1, Step: 1},
		Parse: func(args [][]byte) (command.Runner, error) {
			return panicRunner(func(c *command.Ctx) error {
				time.Sleep(500 * time.Millisecond)
				if err := c.Tx.SetString(args[1], []byte("ok"), 0); err != nil {
					return err
				}
				c.W.OK()
				return nil
			}), nil
		}}
}

// TestBigArgumentCountedOnce: a command's big argument counts once
// toward maxmemory-clients. Once assembled it is in flight, and the bytes
// the assembler held were counted again until the end of the read that
// completed it: a SET of 511 MiB, which runs for seconds on the event
// loop, was counted at 1,022 MiB under the default bound of 753 MiB and
// its client evicted. Here a 40 MiB argument under a 64 MiB bound, to a
// command that runs 500 ms (the eviction check runs every 100 ms).
func TestBigArgumentCountedOnce(t *testing.T) {
	for _, d := range drivers() {
		t.Run(d, func(t *testing.T) {
			n, tail := startNodeWith(t, d, func(c *conf.Config) {
				c.Server.Redis = map[string]string{"maxmemory-clients": "64mb"}
			}, node.WithCommands(slowCommand()))
			ctx := context.Background()
			c := newClient(t, n.Addr(), 2)
			val := strings.Repeat("x", 40<<20)
			for i := 0; i < 2; i++ {
				if err := c.Do(ctx, "rekvtest-slow", "k", val).Err(); err != nil {
					t.Fatalf("run %d: %v\n%s", i, err, tail.String())
				}
			}
			if got := infoMap(t, ctx, c, "stats")["evicted_clients"]; got != "0" {
				t.Fatalf("evicted_clients %s", got)
			}
		})
	}
}
