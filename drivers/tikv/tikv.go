package tikv

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tikv/client-go/v2/kv"
	"github.com/tikv/client-go/v2/oracle"
	"github.com/tikv/client-go/v2/testutils"
	tikvstore "github.com/tikv/client-go/v2/tikv"
	"github.com/tikv/client-go/v2/tikvrpc"
	"github.com/tikv/client-go/v2/txnkv"

	"github.com/rekv/rekv/drivers"
)

// MockPD is the PD address that selects client-go's in-process mock.
const MockPD = "mock://"

// Options configure the TiKV driver.
type Options struct {
	// PD lists the PD endpoints (host:port), or just MockPD.
	PD []string
	// ConnectTimeout bounds the connection to PD at Open.
	ConnectTimeout time.Duration
	// RequestTimeout bounds each call to the cluster: a timestamp, a
	// read, a commit (one that times out is ErrUndetermined).
	RequestTimeout time.Duration
	// MaxTxnBytes bounds one transaction's writes (keys and values).
	MaxTxnBytes int
	// MaxEntryBytes bounds one key plus its value.
	MaxEntryBytes int
	// Logger receives client-go's warnings and errors.
	Logger *slog.Logger
	// Namespace, when not empty, is put before every key: several rekv
	// deployments (or test servers) share one cluster, each seeing only
	// its own keys. It must not start with byte 0xff (TiKV's own).
	Namespace []byte
}

// Defaults for Options' zero fields.
const (
	DefaultConnectTimeout = 10 * time.Second
	DefaultRequestTimeout = 15 * time.Second
	// DefaultMaxTxnBytes fits a string of Redis's proto-max-bulk-len
	// (512 MiB) and its keys in one transaction (TiDB's own default,
	// txn-total-size-limit, is 100 MB; TiKV itself has no such limit).
	DefaultMaxTxnBytes   = 1 << 30
	DefaultMaxEntryBytes = 6 << 20 // TiDB's txn-entry-size-limit, under TiKV's 8 MiB raft entry
)

func (o *Options) fill() {
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = DefaultConnectTimeout
	}
	if o.RequestTimeout <= 0 {
		o.RequestTimeout = DefaultRequestTimeout
	}
	if o.MaxTxnBytes <= 0 {
		o.MaxTxnBytes = DefaultMaxTxnBytes
	}
	if o.MaxEntryBytes <= 0 {
		o.MaxEntryBytes = DefaultMaxEntryBytes
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
}

// ErrNamespace is a namespace that starts with byte 0xff.
var ErrNamespace = errors.New("tikv: a namespace may not start with byte 0xff (TiKV keeps those keys)")

func (o *Options) check() error {
	if len(o.Namespace) > 0 && o.Namespace[0] == 0xff {
		return ErrNamespace
	}
	return nil
}

// DB is a drivers.Driver on a TiKV cluster (or the in-process mock).
type DB struct {
	cur     atomic.Pointer[client] // the client in use (Renew swaps it)
	opts    Options
	onClose func() error // closes a private mock after the store
	once    sync.Once
	err     error
	// network: connected to PD endpoints (not a mock), so Renew can
	// make a new client.
	network bool
	fence   atomic.Pointer[func() int64] // SetFence's
}

// client is one client-go store and the context of every call made on
// it, cancelled when Renew replaces it: a call still waiting then
// ends at once instead of at the end of its back-off (up to 80 s).
type client struct {
	store  *tikvstore.KVStore
	ctx    context.Context
	cancel context.CancelFunc
	// killed, set by stop, ends the back-off of every call on the client
	// (client-go's kill flag: its scans take no context); vars carry it
	// to each transaction.
	killed uint32
	vars   *kv.Variables
	// committing counts the commits under way on c, commitsDone those
	// ended: a client being replaced lets them end before it is stopped
	// (retire).
	committing  atomic.Int32
	commitsDone atomic.Int64
	// answers counts the store's answers to c's requests (a response
	// arrived, even one carrying a region or key error; a request that got
	// none is not counted): Renew keeps a client the store still answers.
	answers atomic.Int64
}

// answering counts the answers to a client's store requests
// (client.answers).
type answering struct {
	tikvstore.Client
	n *atomic.Int64
}

func (a answering) SendRequest(ctx context.Context, addr string, req *tikvrpc.Request, timeout time.Duration) (*tikvrpc.Response, error) {
	resp, err := a.Client.SendRequest(ctx, addr, req, timeout)
	if err == nil {
		a.n.Add(1)
	}
	return resp, err
}

func newClient(s *tikvstore.KVStore) *client {
	ctx, cancel := context.WithCancel(context.Background())
	c := &client{store: s, ctx: ctx, cancel: cancel}
	c.vars = kv.NewVariables(&c.killed)
	s.SetTiKVClient(answering{s.GetTiKVClient(), &c.answers})
	return c
}

// stop ends every call still waiting on c.
func (c *client) stop() {
	atomic.StoreUint32(&c.killed, 1)
	c.cancel()
}

// retireGrace is how long a replaced client's commits under way may run
// before it is stopped, retireQuiet how long they may go without one of
// them ending, and retirePoll how often retire looks at them.
const (
	retireGrace = time.Second
	retireQuiet = 200 * time.Millisecond
	retirePoll  = 5 * time.Millisecond
)

// retire stops c and closes its store once the commits under way on it
// have ended, or none has ended for retireQuiet, or after retireGrace.
// A commit cut off between its prewrite and its commit leaves its locks
// on the store until their TTL (3 s from the prewrite) runs out, and
// every later write of those keys waits for it: the client is replaced
// the moment the store serves again, when the commits an outage held up
// are landing, so stopping it at once kept writes of the busiest keys
// waiting up to 3 s more (after a 4 s pause of the store). Commits that
// do not move (the old client still sees the store down, after a
// restart) hold their shards meanwhile: they are cut off once none has
// ended for retireQuiet.
func (c *client) retire() {
	start := time.Now()
	done, moved := c.commitsDone.Load(), start
	for c.committing.Load() > 0 && time.Since(start) < retireGrace && time.Since(moved) < retireQuiet {
		time.Sleep(retirePoll)
		if d := c.commitsDone.Load(); d != done {
			done, moved = d, time.Now()
		}
	}
	c.stop()
	_ = c.store.Close() // it waits for its background work
}

var _ drivers.Driver = (*DB)(nil)

// Open connects to the cluster named by o.PD.
func Open(o Options) (*DB, error) {
	o.fill()
	if err := o.check(); err != nil {
		return nil, err
	}
	routeLogs(o.Logger)
	if len(o.PD) == 1 && o.PD[0] == MockPD {
		m, err := NewMock()
		if err != nil {
			return nil, err
		}
		d, err := m.Open(o)
		if err != nil {
			return nil, errors.Join(err, m.Close())
		}
		d.onClose = m.Close
		return d, nil
	}
	if len(o.PD) == 0 {
		return nil, errors.New("tikv: no PD address")
	}

	s, err := connect(o)
	if err != nil {
		return nil, err
	}
	d := &DB{opts: o, network: true}
	d.cur.Store(newClient(s))
	return d, nil
}

// connect makes a client of the cluster at o.PD, within o.ConnectTimeout.
func connect(o Options) (*tikvstore.KVStore, error) {
	type result struct {
		c   *txnkv.Client
		err error
	}
	done := make(chan result, 1)
	go func() {
		c, err := txnkv.NewClient(o.PD)
		done <- result{c, err}
	}()
	timer := time.NewTimer(o.ConnectTimeout)
	defer timer.Stop()
	select {
	case r := <-done:
		if r.err != nil {
			return nil, fmt.Errorf("tikv: connect to PD %s: %w", strings.Join(o.PD, ","), r.err)
		}
		return r.c.KVStore, nil
	case <-timer.C:
		go func() { // client-go keeps trying; close whatever it ends with
			if r := <-done; r.c != nil {
				_ = r.c.Close()
			}
		}()
		return nil, fmt.Errorf("tikv: connect to PD %s: no answer within %v", strings.Join(o.PD, ","), o.ConnectTimeout)
	}
}

var _ drivers.Reconnector = (*DB)(nil)

// renewKey is the system key Renew writes through the new client.
var renewKey = []byte{drivers.SystemPrefix, 'r', 'e', 'n', 'e', 'w'}

// Renew connects a new client (connections, region and store caches
// loaded afresh from PD) and writes a key through it within timeout
// (drivers.Reconnector). When the write succeeds and stuck still reports
// true, the new client replaces the current one, which is closed once
// its commits under way have ended or stopped moving (retire): the
// transactions still waiting on it then fail (their commands get
// TRYAGAIN) instead of at the end of their back-off. Otherwise the new
// client is closed, as it is when the store answered the current client
// meanwhile: that client is busy, not cut off (its probe waits behind a
// 100 MiB value's transfer on its connections, while the new client's
// write goes at once; replaced, it failed the GET of that value with
// TRYAGAIN). On the in-process mock it does nothing.
//
// client-go marks a store it lost unreachable and, when the store does
// not answer gRPC health checks (the TiKV-protocol store of
// ../shared/tikv), never marks it reachable again after it came back: its
// requests fail until the deadline, while a new client, which has no such
// memory, writes at once.
func (d *DB) Renew(timeout time.Duration, stuck func() bool) (bool, error) {
	if !d.network {
		return false, nil
	}
	old := d.cur.Load()
	answered := old.answers.Load()
	o := d.opts
	o.ConnectTimeout = min(o.ConnectTimeout, timeout)
	s, err := connect(o)
	if err != nil {
		return false, err
	}
	c := newClient(s)
	if err := d.probeOn(c, timeout); err != nil || !stuck() || old.answers.Load() != answered {
		c.stop()
		go func() { _ = s.Close() }()
		return false, err
	}
	go d.cur.Swap(c).retire()
	return true, nil
}

// probeOn writes renewKey through c within timeout. The write is exempt
// from the fence, as before: a node whose cluster lease lapsed during the
// outage can renew it only once a working client is in place.
func (d *DB) probeOn(c *client, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(c.ctx, timeout)
	defer cancel()
	t, err := d.beginOn(c, ctx, timeout, true)
	if err != nil {
		return err
	}
	t.Unfence()
	if err := t.Set(renewKey, []byte(time.Now().UTC().Format(time.RFC3339Nano))); err != nil {
		t.Rollback()
		return err
	}
	return t.Commit()
}

// Mock is client-go's in-process TiKV cluster (one region, one store),
// which several DBs — several rekv nodes — may share.
type Mock struct {
	client *testutils.MockClient
	pd     interface{ Close() }
	open   func(hijack func(tikvstore.Client) tikvstore.Client) (*tikvstore.KVStore, error)
}

// NewMock starts an empty in-memory mock cluster.
func NewMock() (*Mock, error) {
	client, cluster, pdClient, err := testutils.NewMockTiKV("", nil)
	if err != nil {
		return nil, fmt.Errorf("tikv: mock cluster: %w", err)
	}
	testutils.BootstrapWithSingleStore(cluster)
	m := &Mock{client: client, pd: pdClient}
	m.open = func(hijack func(tikvstore.Client) tikvstore.Client) (*tikvstore.KVStore, error) {
		return tikvstore.NewTestTiKVStore(client, pdClient, hijack, nil, 0)
	}
	return m, nil
}

// Open returns a DB on the mock with its own client state (region cache,
// oracle client), as a separate node would have.
func (m *Mock) Open(o Options) (*DB, error) {
	o.fill()
	if err := o.check(); err != nil {
		return nil, err
	}
	routeLogs(o.Logger)
	s, err := m.open(func(c tikvstore.Client) tikvstore.Client { return sharedClient{c} })
	if err != nil {
		return nil, fmt.Errorf("tikv: mock store: %w", err)
	}
	d := &DB{opts: o}
	d.cur.Store(newClient(s))
	return d, nil
}

// Close stops the mock; close its DBs first.
func (m *Mock) Close() error {
	m.pd.Close()
	return m.client.Close()
}

// sharedClient keeps one DB's Close from closing the mock under the others.
type sharedClient struct{ tikvstore.Client }

func (sharedClient) Close() error { return nil }

// Close closes the client (and a private mock).
func (d *DB) Close() error {
	d.once.Do(func() {
		c := d.cur.Load()
		c.stop()
		d.err = c.store.Close()
		if d.onClose != nil {
			d.err = errors.Join(d.err, d.onClose())
		}
	})
	return d.err
}

// NextVersion returns a timestamp from TiKV's oracle: unique and growing
// across every node of the cluster.
func (d *DB) NextVersion() (uint64, error) {
	return d.stamp(d.cur.Load())
}

var _ drivers.VersionBatcher = (*DB)(nil)

// NextVersions returns n timestamps of the oracle (drivers.VersionBatcher):
// asked for at once, they go to PD as one request of n, so a group of
// writes that creates many keys waits for the oracle once, not per key.
func (d *DB) NextVersions(n int) ([]uint64, error) {
	c := d.cur.Load()
	ctx, cancel := context.WithTimeout(c.ctx, d.opts.RequestTimeout)
	defer cancel()
	_, vs, err := stamps(ctx, c, false, n)
	return vs, err
}

// BeginWithVersions begins a writable transaction with n versions asked
// for after its start timestamp, without waiting between them: the
// oracle's client sends them in one request, or in the next
// (drivers.VersionBatcher).
func (d *DB) BeginWithVersions(n int) (drivers.Txn, []uint64, error) {
	c := d.cur.Load()
	ctx, cancel := context.WithTimeout(c.ctx, d.opts.RequestTimeout)
	defer cancel()
	start, vs, err := stamps(ctx, c, true, n)
	if err != nil {
		return nil, nil, err
	}
	tx, err := d.begin(true, tikvstore.WithStartTS(start))
	return tx, vs, err
}

// stamps asks c's oracle for a start timestamp (when withStart) and then
// n more, all before waiting for any, and returns them; the n are sorted.
func stamps(ctx context.Context, c *client, withStart bool, n int) (start uint64, vs []uint64, err error) {
	o := c.store.GetOracle()
	opt := &oracle.Option{TxnScope: oracle.GlobalTxnScope}
	var first oracle.Future
	if withStart {
		first = o.GetTimestampAsync(ctx, opt)
	}
	fs := make([]oracle.Future, n)
	for i := range fs {
		fs[i] = o.GetTimestampAsync(ctx, opt)
	}
	if first != nil {
		if start, err = first.Wait(); err != nil {
			return 0, nil, timestampErr(err)
		}
	}
	vs = make([]uint64, n)
	for i, f := range fs {
		if vs[i], err = f.Wait(); err != nil {
			return 0, nil, timestampErr(err)
		}
	}
	slices.Sort(vs) // a batch is answered in order; sorted whatever the client does
	return start, vs, nil
}

// timestampErr is the error of a timestamp the oracle did not give.
func timestampErr(err error) error {
	return fmt.Errorf("%w: tikv: timestamp: %w", drivers.ErrUnavailable, err)
}

// stamp returns a timestamp of c's oracle, within the request timeout.
func (d *DB) stamp(c *client) (uint64, error) { return stampIn(c, c.ctx, d.opts.RequestTimeout) }

// stampIn returns a timestamp of c's oracle, within timeout and ctx.
func stampIn(c *client, ctx context.Context, timeout time.Duration) (uint64, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	ts, err := c.store.GetOracle().GetTimestamp(ctx, &oracle.Option{TxnScope: oracle.GlobalTxnScope})
	if err != nil {
		return 0, timestampErr(err)
	}
	return ts, nil
}

// Begin starts an optimistic transaction.
func (d *DB) Begin(writable bool) (drivers.Txn, error) {
	return d.begin(writable)
}

func (d *DB) begin(writable bool, opts ...tikvstore.TxnOption) (drivers.Txn, error) {
	c := d.cur.Load()
	return d.beginOn(c, c.ctx, d.opts.RequestTimeout, writable, opts...)
}

// beginOn starts a transaction on client c whose calls end with ctx, each
// within timeout.
func (d *DB) beginOn(c *client, ctx context.Context, timeout time.Duration, writable bool, opts ...tikvstore.TxnOption) (*txn, error) {
	if len(opts) == 0 { // its own timestamp, bounded (Begin's own waits for PD without end)
		ts, err := stampIn(c, ctx, timeout)
		if err != nil {
			return nil, err
		}
		opts = append(opts, tikvstore.WithStartTS(ts))
	}
	tx, err := c.store.Begin(opts...)
	if err != nil {
		return nil, fmt.Errorf("%w: tikv: begin: %w", drivers.ErrUnavailable, err)
	}
	tx.GetUnionStore().SetEntrySizeLimit(uint64(d.opts.MaxEntryBytes), uint64(d.opts.MaxTxnBytes))
	tx.SetVars(c.vars)
	t := &txn{tx: tx, cl: c, ctx: ctx, timeout: timeout, writable: writable, ns: d.opts.Namespace}
	if f := d.fence.Load(); f != nil && writable {
		t.fence = *f
	}
	return t, nil
}

var _ drivers.Fencer = (*DB)(nil)

// SetFence bounds every writable transaction's commit time from now on
// (drivers.Fencer).
func (d *DB) SetFence(until func() int64) { d.fence.Store(&until) }

var _ drivers.Snapshotter = (*DB)(nil)

// ReadStamp asks the oracle for a timestamp (drivers.Snapshotter).
func (d *DB) ReadStamp() func() (uint64, error) {
	c := d.cur.Load()
	ctx, cancel := context.WithTimeout(c.ctx, d.opts.RequestTimeout)
	f := c.store.GetOracle().GetTimestampAsync(ctx, &oracle.Option{TxnScope: oracle.GlobalTxnScope})
	var once sync.Once
	var ts uint64
	var err error
	return func() (uint64, error) {
		once.Do(func() { // the future answers one Wait only
			defer cancel()
			if ts, err = f.Wait(); err != nil {
				err = timestampErr(err)
			}
		})
		return ts, err
	}
}

// BeginAt starts a read-only transaction at snapshot ts
// (drivers.Snapshotter).
func (d *DB) BeginAt(ts uint64) (drivers.Txn, error) {
	return d.begin(false, tikvstore.WithStartTS(ts))
}
