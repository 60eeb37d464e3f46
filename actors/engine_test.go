package actors

import (
	"context"
	"io"
	"log/slog"
	"os"
	"runtime/pprof"
	"sync"
	"testing"
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/command/keys"
	"github.com/rekv/rekv/actors/command/strings"
	"github.com/rekv/rekv/drivers"
	"github.com/rekv/rekv/drivers/badger"
	"github.com/rekv/rekv/resp"
)

type collector struct {
	mu      sync.Mutex
	replies map[uint64]string
	done    chan struct{}
	want    int
}

func (c *collector) Reply(seq uint64, b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.replies[seq] = string(b)
	if len(c.replies) == c.want {
		close(c.done)
	}
}

func (c *collector) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.replies)
}

// wait returns once every reply arrived. It fails only when replies stop
// arriving for a long time (a deadlock), dumping the goroutines, so a slow
// machine is not mistaken for a hang.
func (c *collector) wait(t *testing.T) {
	last, stalled := -1, 0
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-c.done:
			return
		case <-tick.C:
			if n := c.count(); n != last {
				last, stalled = n, 0
				continue
			}
			if stalled++; stalled == 30 {
				_ = pprof.Lookup("goroutine").WriteTo(os.Stderr, 1)
				t.Errorf("no reply for 30s: %d of %d arrived", last, c.want)
				return
			}
		}
	}
}

type panicker struct{}

func (panicker) Run(*command.Ctx) error { panic("boom") }

// newEngine returns an engine of shards shards with reg's commands on
// in-memory Badger.
func newEngine(t *testing.T, reg *command.Registry, shards int) *Engine {
	return engineOn(t, reg, shards, nil)
}

// engineOn is newEngine on the driver wrap makes of the Badger store (a
// counting wrapper); nil wrap uses the store itself.
func engineOn(t *testing.T, reg *command.Registry, shards int, wrap func(drivers.Driver) drivers.Driver) *Engine {
	t.Helper()
	d, err := badger.Open(badger.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	var drv drivers.Driver = d
	if wrap != nil {
		drv = wrap(d)
	}
	e, err := New(Options{Shards: shards, MetaCacheSize: 1000, ScanCursors: 10}, drv, reg, command.Server{},
		slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = e.Stop(context.Background())
		_ = d.Close()
	})
	return e
}

// parsed resolves and parses a command line.
func parsed(t *testing.T, reg *command.Registry, args [][]byte) (*command.Spec, command.Runner) {
	t.Helper()
	spec, err := reg.Resolve(args)
	if err != nil {
		t.Fatal(err)
	}
	run, err := spec.Parse(args)
	if err != nil {
		t.Fatal(err)
	}
	return spec, run
}

// request parses line into a request of client c, routed by e.
func request(t *testing.T, e *Engine, reg *command.Registry, c Replier, line string) *Request {
	t.Helper()
	args, _ := resp.SplitArgs([]byte(line), nil)
	spec, run := parsed(t, reg, args)
	size := 0 // as the event loop counts it (net's argsSize)
	for _, a := range args {
		size += len(a)
	}
	return &Request{Client: c, Spec: spec, Runner: run, Args: args, ArgBytes: size, Proto: 2, Shards: e.Route(spec, args)}
}

// send parses and dispatches lines as one client would pipeline them and
// returns the replies by sequence number.
func send(t *testing.T, e *Engine, reg *command.Registry, lines []string, extra map[int]*Request) []string {
	col := dispatchAll(t, e, reg, lines, extra)
	return col.results(t, len(lines))
}

// dispatchAll dispatches lines (or extra requests at their indexes) as one
// client's pipeline, without waiting.
func dispatchAll(t *testing.T, e *Engine, reg *command.Registry, lines []string, extra map[int]*Request) *collector {
	col := &collector{replies: map[uint64]string{}, done: make(chan struct{}), want: len(lines)}
	for i, line := range lines {
		if r, ok := extra[i]; ok {
			r.Seq, r.Client = uint64(i), col
			e.Dispatch(r)
			continue
		}
		r := request(t, e, reg, col, line)
		r.Seq = uint64(i)
		e.Dispatch(r)
	}
	return col
}

// results waits for n replies and returns them by sequence number.
func (col *collector) results(t *testing.T, n int) []string {
	col.wait(t)
	out := make([]string, n)
	col.mu.Lock()
	defer col.mu.Unlock()
	for i := range out {
		out[i] = col.replies[uint64(i)]
	}
	return out
}

func TestPanicIsRecoveredPerCommand(t *testing.T) {
	reg := command.NewRegistry(strings.Commands(), keys.Commands())
	e := newEngine(t, reg, 2)
	boom := &command.Spec{Name: "boom", Flags: command.Write}
	lines := []string{"set k v", "boom", "get k"}
	got := send(t, e, reg, lines, map[int]*Request{1: {Spec: boom, Runner: panicker{}, Proto: 2, Shards: []int{e.ShardOf([]byte("k"))}}})
	want := []string{"+OK\r\n", "-ERR internal error\r\n", "$1\r\nv\r\n"}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("reply %d = %q, want %q", i, got[i], want[i])
		}
	}
}

// TestMultiShardCommandIsNotOvertaken pipelines a multi-shard MSET followed
// by reads of each key on its own shard: every read must see the MSET.
func TestMultiShardCommandIsNotOvertaken(t *testing.T) {
	reg := command.NewRegistry(strings.Commands(), keys.Commands())
	e := newEngine(t, reg, 8)
	for round := 0; round < 50; round++ {
		lines := []string{"mset a 1 b 1 c 1 d 1 e 1 f 1 g 1 h 1", "get a", "get b", "get c", "get d", "get e", "get f", "get g", "get h",
			"mset a 2 b 2 c 2 d 2 e 2 f 2 g 2 h 2", "del a b c d e f g h", "exists a b c d e f g h"}
		got := send(t, e, reg, lines, nil)
		for i := 1; i <= 8; i++ {
			if got[i] != "$1\r\n1\r\n" {
				t.Fatalf("round %d: %s = %q", round, lines[i], got[i])
			}
		}
		if got[10] != ":8\r\n" || got[11] != ":0\r\n" {
			t.Fatalf("round %d: del %q exists %q", round, got[10], got[11])
		}
	}
}

// TestConcurrentMultiShardCommandsDoNotDeadlock dispatches overlapping
// multi-shard commands from several goroutines at once.
func TestConcurrentMultiShardCommandsDoNotDeadlock(t *testing.T) {
	reg := command.NewRegistry(strings.Commands(), keys.Commands())
	e := newEngine(t, reg, 4)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			var lines []string
			for i := 0; i < 40; i++ {
				lines = append(lines, "mset x 1 y 2 z 3 w 4", "rename x x2", "rename x2 x", "dbsize")
			}
			send(t, e, reg, lines, nil)
		}(g)
	}
	wg.Wait() // each send fails the test if its replies stall
}

func TestHashTag(t *testing.T) {
	for _, c := range [][2]string{
		{"user:{42}:name", "42"}, {"{a}{b}", "a"}, {"{}x", "{}x"}, {"x{}", "x{}"},
		{"no-tag", "no-tag"}, {"a{b", "a{b"}, {"a}b{c}", "c"}, {"{{x}}", "{x"},
	} {
		if got := string(HashTag([]byte(c[0]))); got != c[1] {
			t.Errorf("HashTag(%q) = %q, want %q", c[0], got, c[1])
		}
	}
}

// needsAll writes key, but only when it holds key's shard: otherwise it
// asks for every shard (as a script touching an undeclared key does).
type needsAll struct {
	key  []byte
	runs *int32 // attempts, counted on the shards (serially)
}

func (r needsAll) Run(c *command.Ctx) error {
	*r.runs++
	if c.Holds != nil && !c.Holds(r.key) {
		if err := c.Tx.SetString([]byte("partial"), []byte("x"), 0); err != nil {
			return err
		}
		return command.ErrAllShards
	}
	if err := c.Tx.SetString(r.key, []byte("done"), 0); err != nil {
		return err
	}
	c.W.OK()
	return nil
}

// TestAllShardsRerun: a command that finds a key outside its shards is
// rolled back and run again holding every shard, before the client's next
// command on that key.
func TestAllShardsRerun(t *testing.T) {
	reg := command.NewRegistry(strings.Commands(), keys.Commands())
	e := newEngine(t, reg, 4)
	key, other := []byte("target"), []byte("x")
	for i := 0; e.ShardOf(other) == e.ShardOf(key); i++ {
		other = []byte{'x', byte('a' + i)}
	}
	var runs int32
	spec := &command.Spec{Name: "needsall", Flags: command.Write}
	got := send(t, e, reg, []string{"", "get target", "exists partial"}, map[int]*Request{
		0: {Spec: spec, Runner: needsAll{key: key, runs: &runs}, Proto: 2, Shards: []int{e.ShardOf(other)}},
	})
	if got[0] != "+OK\r\n" || got[2] != ":0\r\n" {
		t.Fatalf("replies %q", got)
	}
	// Aborted attempts: one alone, plus one inside a group commit when it
	// was grouped (the group then re-runs its commands alone).
	if runs < 2 || runs > 3 {
		t.Fatalf("%d attempts, want 2 or 3", runs)
	}
	// The GET was sent after the command but may run before its re-run
	// here (the engine alone does not order them: the connection waits
	// for Serial commands); it sees either nothing or the final value.
	if got[1] != "$-1\r\n" && got[1] != "$4\r\ndone\r\n" {
		t.Fatalf("GET saw %q", got[1])
	}
}

// TestBarrierHoldsShardsUntilTheCommandRuns: a dispatched multi-shard
// command leaves each shard that reached it locked (not idle, so nothing
// runs there in place) until the last of its shards reaches it; that one
// runs it and unlocks them all.
func TestBarrierHoldsShardsUntilTheCommandRuns(t *testing.T) {
	reg := command.NewRegistry(strings.Commands(), keys.Commands())
	e := newEngine(t, reg, 4)
	settle(t, e)
	c := make(chanReplier, 1)
	req := request(t, e, reg, c, "mset a 1 b 2 c 3 d 4 e 5 f 6")
	if len(req.Shards) < 2 {
		t.Fatalf("keys on %d shard(s): the test needs several", len(req.Shards))
	}
	last := e.shards[req.Shards[len(req.Shards)-1]]
	last.mu.Lock() // busy: it cannot reach the barrier yet
	e.Dispatch(req)
	for _, i := range req.Shards[:len(req.Shards)-1] {
		s := e.shards[i]
		deadline := time.Now().Add(5 * time.Second)
		for s.mb.UserMessageCount() > 0 { // it reaches the barrier
			if time.Now().After(deadline) {
				t.Fatalf("shard %d never reached the barrier", i)
			}
			time.Sleep(time.Millisecond)
		}
		time.Sleep(10 * time.Millisecond)
		if s.idle() {
			t.Fatalf("shard %d idle while the command waits for shard %d", i, last.idx)
		}
	}
	select {
	case b := <-c:
		t.Fatalf("replied %q before its last shard was free", b)
	case <-time.After(20 * time.Millisecond):
	}
	last.mu.Unlock()
	select {
	case b := <-c:
		if string(b) != "+OK\r\n" {
			t.Fatalf("MSET: %q", b)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no reply once the last shard was free")
	}
	settle(t, e) // every shard unlocked again
	if ok, got := ranHere(t, e, reg, "mget a f"); !ok || got != "*2\r\n$1\r\n1\r\n$1\r\n6\r\n" {
		t.Fatalf("MGET after: ran %v, %q", ok, got)
	}
}
