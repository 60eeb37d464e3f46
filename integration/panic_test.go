package integration

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/node"
	"github.com/rekv/rekv/resp"
)

// Panic injection: commands that panic, added through node.WithCommands,
// one for each path client-driven code runs on. Each test sees the
// command answer "-ERR internal error" (or its reply, where the panic is
// in a callback after it), the server log the panic once with its stack,
// INFO count it, and the server and every other client go on.

// errInjected is what the test commands panic with.
var errInjected = errors.New("injected panic")

// panicRunner is a Runner that calls fn.
type panicRunner func(c *command.Ctx) error

func (f panicRunner) Run(c *command.Ctx) error { return f(c) }

// panicBlocker waits on its key for 50 ms and panics when it times out.
type panicBlocker struct{ command.Wait }

func (b *panicBlocker) Run(*command.Ctx) error           { return command.ErrWouldBlock }
func (b *panicBlocker) Serve(*command.Ctx, []byte) error { return command.ErrWouldBlock }
func (b *panicBlocker) TimedOut(*resp.Writer)            { panic(errInjected) }

// panicCommands are the injected faults:
//   - rekvtest-panicconn: a connection command panics in Run;
//   - rekvtest-panicparse: a command panics while it is parsed;
//   - rekvtest-panicwrite key: a storage command writes key, then panics
//     (inside MULTI, inside a script, alone);
//   - rekvtest-panicblock key: a blocking command panics making its
//     time-out reply, on the engine's timer;
//   - rekvtest-panicwait: a deferred reply's callback panics on a timer
//     (it answers +OK first, from a deferred call);
//   - rekvtest-panicreplica key: writes key on a master, panics where a
//     replica applies it.
func panicCommands() []*command.Spec {
	return []*command.Spec{
		{Name: "rekvtest-panicconn", Arity: 1, Flags: command.Conn,
			Parse: func([][]byte) (command.Runner, error) {
				return panicRunner(func(*command.Ctx) error { panic(errInjected) }), nil
			}},
		{Name: "rekvtest-panicparse", Arity: 1, Flags: command.ReadOnly,
			Parse: func([][]byte) (command.Runner, error) { panic(errInjected) }},
		{Name: "rekvtest-panicwrite", Arity: 2, Flags: command.Write, Keys: command.KeySpec{First: 1, Last: 1, Step: 1},
			Parse: func(args [][]byte) (command.Runner, error) {
				return panicRunner(func(c *command.Ctx) error {
					if err := c.Tx.SetString(args[1], []byte("half done"), 0); err != nil {
						return err
					}
					panic(errInjected)
				}), nil
			}},
		{Name: "rekvtest-panicblock", Arity: 2, Flags: command.Write | command.Blocking, Keys: command.KeySpec{First: 1, Last: 1, Step: 1},
			Parse: func(args [][]byte) (command.Runner, error) {
				return &panicBlocker{command.Wait{Keys: [][]byte{args[1]}, For: 50 * time.Millisecond}}, nil
			}},
		{Name: "rekvtest-panicwait", Arity: 1, Flags: command.Conn,
			Parse: func([][]byte) (command.Runner, error) {
				return panicRunner(func(c *command.Ctx) error {
					reply := c.Client.Session.ReplyLater()
					c.Server.Node.WaitReplicas(1, 20*time.Millisecond, false, func(int) {
						defer reply([]byte("+OK\r\n"))
						panic(errInjected)
					})
					return command.ErrReplyLater
				}), nil
			}},
		{Name: "rekvtest-panicreplica", Arity: 2, Flags: command.Write, Keys: command.KeySpec{First: 1, Last: 1, Step: 1},
			Parse: func(args [][]byte) (command.Runner, error) {
				return panicRunner(func(c *command.Ctx) error {
					if c.Server.Status.Replication().Replica {
						panic(errInjected)
					}
					if err := c.Tx.SetString(args[1], []byte("on the master"), 0); err != nil {
						return err
					}
					c.W.OK()
					return nil
				}), nil
			}},
	}
}

// panicsCounted returns INFO's recovered_panics.
func panicsCounted(t *testing.T, ctx context.Context, c *redis.Client) int {
	t.Helper()
	return atoi(t, infoMap(t, ctx, c, "stats")["recovered_panics"])
}

// TestPanicsAreContained injects a panic into each kind of command and
// context; the server answers an internal error for that command alone.
func TestPanicsAreContained(t *testing.T) {
	for _, d := range drivers() {
		t.Run(d, func(t *testing.T) {
			n, tail := startNodeWith(t, d, nil, node.WithCommands(panicCommands()...))
			ctx := context.Background()
			c := newClient(t, n.Addr(), 2)
			other := newClient(t, n.Addr(), 3)
			must(t, other.Set(ctx, "other", "v", 0).Err())
			const internal = "-ERR internal error\r\n"
			r := dialRaw(t, n.Addr())
			cases := []struct {
				name, logs string
				send       [][]string
				want       []string
			}{
				{"connection command", "cmd=rekvtest-panicconn",
					[][]string{{"rekvtest-panicconn"}}, []string{internal}},
				{"parse", "cmd=rekvtest-panicparse",
					[][]string{{"rekvtest-panicparse"}}, []string{internal}},
				{"storage command", "cmd=rekvtest-panicwrite",
					[][]string{{"rekvtest-panicwrite", "k1"}}, []string{internal}},
				// EXEC is all or nothing: the SET before the panic is
				// rolled back with the rest.
				{"inside MULTI", "cmd=rekvtest-panicwrite",
					[][]string{{"MULTI"}, {"SET", "k2", "a"}, {"rekvtest-panicwrite", "k3"}, {"EXEC"}},
					[]string{"+OK\r\n", "+QUEUED\r\n", "+QUEUED\r\n", internal}},
				{"inside a script", "cmd=rekvtest-panicwrite",
					[][]string{{"EVAL", "redis.call('set', KEYS[1], 'a') return redis.call('rekvtest-panicwrite', KEYS[2])", "2", "{s}1", "{s}2"}},
					[]string{internal}},
				{"blocked time-out", "cmd=rekvtest-panicblock",
					[][]string{{"rekvtest-panicblock", "k4"}}, []string{internal}},
				{"deferred reply", "in=\"WAIT reply\"",
					[][]string{{"rekvtest-panicwait"}}, []string{"+OK\r\n"}},
			}
			for i, tc := range cases {
				t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
					before := strings.Count(tail.String(), tc.logs)
					for _, args := range tc.send {
						r.write(encode(args...))
					}
					for j, want := range tc.want {
						if got := r.reply(); got != want {
							t.Fatalf("reply %d: %q, want %q", j, got, want)
						}
					}
					if got := r.do("PING"); got != "+PONG\r\n" {
						t.Fatalf("the same connection then: %q", got)
					}
					if got := other.Get(ctx, "other").Val(); got != "v" {
						t.Fatalf("another client then: %q", got)
					}
					deadline := time.Now().Add(5 * time.Second)
					for panicsCounted(t, ctx, c) != i+1 && time.Now().Before(deadline) {
						time.Sleep(10 * time.Millisecond) // a timer's panic is counted as it unwinds
					}
					if got := panicsCounted(t, ctx, c); got != i+1 {
						t.Fatalf("recovered_panics %d, want %d", got, i+1)
					}
					log := tail.String()
					if strings.Count(log, tc.logs) <= before || !strings.Contains(log, "panic_test.go") {
						t.Fatalf("the panic and its stack were not logged (%q):\n%s", tc.logs, log)
					}
				})
			}
			for _, k := range []string{"k1", "k2", "k3", "{s}1", "{s}2", "k4"} {
				if n := c.Exists(ctx, k).Val(); n != 0 {
					t.Errorf("%s exists: what a panicking command did must be rolled back", k)
				}
			}
		})
	}
}

// TestReplicaSurvivesAPanickingCommand: a command that panics where a
// replica applies it is contained there; the link goes on and later
// writes arrive.
func TestReplicaSurvivesAPanickingCommand(t *testing.T) {
	ctx := context.Background()
	m, _ := startNodeWith(t, "badger", nil, node.WithCommands(panicCommands()...))
	r, tail := startNodeWith(t, "badger", nil, node.WithCommands(panicCommands()...))
	mc, rc := newClient(t, m.Addr(), 2), newClient(t, r.Addr(), 2)
	host, port, _ := strings.Cut(m.Addr(), ":")
	must(t, rc.Do(ctx, "REPLICAOF", host, port).Err())
	waitCaughtUp(t, ctx, mc, rc)
	if got := mc.Do(ctx, "rekvtest-panicreplica", "a").Val(); got != "OK" {
		t.Fatalf("on the master: %v", got)
	}
	must(t, mc.Set(ctx, "b", "after", 0).Err())
	waitCaughtUp(t, ctx, mc, rc)
	if got := rc.Get(ctx, "b").Val(); got != "after" {
		t.Fatalf("a later write on the replica: %q", got)
	}
	if got := panicsCounted(t, ctx, rc); got != 1 {
		t.Fatalf("the replica's recovered_panics: %d, want 1", got)
	}
	if !strings.Contains(tail.String(), "cmd=rekvtest-panicreplica") {
		t.Fatalf("the replica did not log the panic:\n%s", tail.String())
	}
	if got := infoMap(t, ctx, rc, "replication")["master_link_status"]; got != "up" {
		t.Fatalf("master_link_status %q", got)
	}
}
