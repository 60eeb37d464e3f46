package commandtest

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/rekv/rekv/actors"
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/drivers"
	"github.com/rekv/rekv/drivers/badger"
	"github.com/rekv/rekv/resp"
)

// Harness holds a store and a registry.
type Harness struct {
	t       testing.TB
	drv     drivers.Driver
	rt      *actors.Runtime
	cache   *store.MetaCache
	markers *store.FlushMarkers
	events  []string
	// Now is the command time in unix ms; tests move it to expire keys.
	Now int64
	// DB is the selected database.
	DB int
	// Proto is the reply protocol (2 or 3).
	Proto int
	// Client is the connection connection commands see.
	Client *Client
}

// Client is a fake connection for connection commands (SELECT, PING...).
type Client struct {
	Id, Db, Prot, Subs int
	ClientName         string
	Closing, Authed    bool
}

func (c *Client) ID() int64           { return int64(c.Id) }
func (c *Client) DB() int             { return c.Db }
func (c *Client) SetDB(db int)        { c.Db = db }
func (c *Client) Proto() int          { return c.Prot }
func (c *Client) SetProto(p int)      { c.Prot = p }
func (c *Client) Name() string        { return c.ClientName }
func (c *Client) SetName(name string) { c.ClientName = name }
func (c *Client) SetLibName(string)   {}
func (c *Client) SetLibVer(string)    {}
func (c *Client) Info() string        { return fmt.Sprintf("id=%d name=%s db=%d", c.Id, c.ClientName, c.Db) }
func (c *Client) CloseAfterReply()    { c.Closing = true }
func (c *Client) Authenticated() bool { return c.Authed }
func (c *Client) SetAuthenticated()   { c.Authed = true }
func (c *Client) Subscriptions() int  { return c.Subs }

// New returns a harness serving the given registration tables on a fresh
// in-memory Badger.
func New(t testing.TB, tables ...[]*command.Spec) *Harness {
	drv, err := badger.Open(badger.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = drv.Close() })
	return NewWithDriver(t, drv, tables...)
}

// NewWithDriver returns a harness on drv, which the caller closes.
func NewWithDriver(t testing.TB, drv drivers.Driver, tables ...[]*command.Spec) *Harness {
	rt := &actors.Runtime{Registry: command.NewRegistry(tables...), Cursors: store.NewCursors(64)}
	cache := store.NewMetaCache(1000)
	cache.EnableMembers(1000)
	cache.EnableLists(64 << 10)
	return &Harness{t: t, drv: drv, rt: rt, cache: cache,
		markers: &store.FlushMarkers{}, Now: 1_700_000_000_000, Proto: 2,
		Client: &Client{Id: 1, Prot: 2, Authed: true}}
}

// For returns a harness on the same store, caches and client that reports
// to t (a fuzz target's per-input test) instead of the harness's own.
func (h *Harness) For(t testing.TB) *Harness {
	c := *h
	c.t = t
	return &c
}

// Parse resolves and parses line, returning the parse error if any.
func (h *Harness) Parse(line string) error {
	_, _, err := h.parse(line)
	return err
}

func (h *Harness) parse(line string) (*command.Spec, command.Runner, error) {
	args, ok := resp.SplitArgs([]byte(line), nil)
	if !ok || len(args) == 0 {
		h.t.Fatalf("bad line %q", line)
	}
	return h.parseArgs(args)
}

func (h *Harness) parseArgs(args [][]byte) (*command.Spec, command.Runner, error) {
	spec, err := h.rt.Registry.Resolve(args)
	if err != nil {
		return nil, nil, err
	}
	r, err := spec.Parse(args)
	return spec, r, err
}

// Do runs line in its own transaction and returns the exact reply bytes.
func (h *Harness) Do(line string) string {
	h.t.Helper()
	args, ok := resp.SplitArgs([]byte(line), nil)
	if !ok || len(args) == 0 {
		h.t.Fatalf("bad line %q", line)
	}
	return h.DoArgs(args...)
}

// DoArgs runs the command args (no quoting) as Do runs a line.
func (h *Harness) DoArgs(args ...[]byte) string {
	h.t.Helper()
	w := resp.NewWriter(h.Proto)
	spec, r, err := h.parseArgs(args)
	if err == nil {
		err = h.run(spec, r, w)
	}
	if err != nil {
		line := string(bytes.Join(args, []byte(" "))) // only to report it
		w.Reset(h.Proto)
		command.Reply(w, err, line, nil)
		if string(w.Bytes()) == "-"+rerr.ErrInternal.Msg+"\r\n" {
			h.t.Fatalf("%s: internal error %v", line, err)
		}
	}
	return string(w.Bytes())
}

func (h *Harness) run(spec *command.Spec, r command.Runner, w *resp.Writer) error {
	writable := spec.Flags&command.Write != 0
	tx, err := store.Env{Drv: h.drv, Caches: func([]byte) *store.MetaCache { return h.cache }, Markers: h.markers,
		Notify: true}.Begin(writable, h.DB, h.Now)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// A blocking command that finds nothing answers like a timeout, as
	// inside MULTI: the harness never waits.
	cl := command.Client{Conn: h.Client, Session: h.Client, Auth: h.Client, Subs: h.Client, Txn: h.Client, Tracking: h.Client}
	err = h.rt.Step(tx, w, actors.Call{Spec: spec, Runner: r, Client: cl, NoBlock: true, Purge: h.cache.Purge})
	if err != nil || !writable {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	for _, n := range tx.Journal().Notes() {
		h.events = append(h.events, fmt.Sprintf("%s %d %s", n.Event, n.DB, n.Key))
	}
	return nil
}

// Events returns the keyspace events ("event db key") of the commands run
// since the last call, in order, and forgets them.
func (h *Harness) Events() []string {
	ev := h.events
	h.events = nil
	return ev
}

// Case is one line and its expected reply bytes.
type Case = [2]string

// Run runs cases in order and reports every mismatch.
func (h *Harness) Run(cases []Case) {
	h.t.Helper()
	for _, c := range cases {
		if got := h.Do(c[0]); got != c[1] {
			h.t.Errorf("%s\n got %q\nwant %q", c[0], got, c[1])
		}
	}
}

// Pub/Sub is not simulated: the fake client's count is Subs, and it holds
// no names.

// Subscribe implements command.Client.
func (c *Client) Subscribe(bool, []byte) int { return c.Subs }

// Unsubscribe implements command.Client.
func (c *Client) Unsubscribe(bool, []byte) int { return c.Subs }

// Subscribed implements command.Client.
func (c *Client) Subscribed(bool) [][]byte { return nil }

// ShardSubscribe, ShardUnsubscribe and ShardSubscribed implement
// command.Client: no subscriptions in the harness.
func (c *Client) ShardSubscribe([]byte) int   { return 0 }
func (c *Client) ShardUnsubscribe([]byte) int { return 0 }
func (c *Client) ShardSubscribed() [][]byte   { return nil }

// The fake client has no MULTI/WATCH state: transactions are tested
// through the server (integration).

// Multi implements command.Client.
func (c *Client) Multi() error { return errNoTx }

// Discard implements command.Client.
func (c *Client) Discard() error { return errNoTx }

// Unwatch implements command.Client.
func (c *Client) Unwatch() {}

// Watch implements command.Client.
func (c *Client) Watch([][]byte) error { return errNoTx }

// Exec implements command.Client.
func (c *Client) Exec() error { return errNoTx }

// StartMonitor implements command.Client: the harness has no monitors.
func (c *Client) StartMonitor() {}

// DeferReply, SetReplyMode and Reset implement command.Client; the
// harness runs none of the commands that use them.
func (c *Client) DeferReply(time.Duration, []byte) {}
func (c *Client) SetReplyMode(string)              {}
func (c *Client) Reset()                           {}
func (c *Client) Track(command.TrackOptions) error { return errNoTracking }
func (c *Client) User() string                     { return "default" }
func (c *Client) SetUser(string)                   {}
func (c *Client) SetNoTouch(bool)                  {}
func (c *Client) SetNoEvict(bool)                  {}
func (c *Client) SetReplConf(string, string)       {}
func (c *Client) ReplyLater() func([]byte)         { return func([]byte) {} }
func (c *Client) AfterEarlier(f func())            { f() } // commands run one at a time
func (c *Client) Caching(bool) error               { return errNoTracking }
func (c *Client) TrackingInfo() command.TrackingInfo {
	return command.TrackingInfo{Flags: []string{"off"}, Redirect: -1}
}

var errNoTx = rerr.Errorf("ERR transactions are not simulated by commandtest")

var errNoTracking = rerr.Errorf("ERR client tracking is not simulated by commandtest")
