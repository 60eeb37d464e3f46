package tikv

import (
	"context"
	"testing"
	"time"

	tikvstore "github.com/tikv/client-go/v2/tikv"
	"github.com/tikv/client-go/v2/tikvrpc"
)

// slowCommit holds each commit request (the second phase, after the
// prewrite) for a while, as a store that just came back does, giving up
// when its context ends, as gRPC does. arrived hears each.
type slowCommit struct {
	tikvstore.Client
	arrived chan<- struct{}
}

func (s slowCommit) SendRequest(ctx context.Context, addr string, req *tikvrpc.Request, timeout time.Duration) (*tikvrpc.Response, error) {
	if req.Type == tikvrpc.CmdCommit {
		s.arrived <- struct{}{}
		select {
		case <-time.After(retireQuiet / 4):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return s.Client.SendRequest(ctx, addr, req, timeout)
}

// TestRetireLetsCommitsEnd: a client replaced while one of its commits
// is between its prewrite and its commit lets it end, then stops. Cut
// off, the commit would leave its locks for every later write of the key
// to wait out (3 s).
func TestRetireLetsCommitsEnd(t *testing.T) {
	m, err := NewMock()
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	arrived := make(chan struct{}, 4)
	s, err := m.open(func(c tikvstore.Client) tikvstore.Client { return slowCommit{sharedClient{c}, arrived} })
	if err != nil {
		t.Fatal(err)
	}
	o := Options{}
	o.fill()
	d := &DB{opts: o}
	c := newClient(s)
	tx, err := d.beginOn(c, c.ctx, time.Minute, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Set([]byte("k"), []byte("v")); err != nil {
		t.Fatal(err)
	}
	committed := make(chan error, 1)
	go func() { committed <- tx.Commit() }()
	<-arrived // prewritten; the commit request is on its way
	retired := make(chan struct{})
	start := time.Now()
	go func() { c.retire(); close(retired) }()
	if err := <-committed; err != nil {
		t.Fatalf("a commit under way on a retired client failed: %v", err)
	}
	select {
	case <-retired:
	case <-time.After(10 * retireGrace):
		t.Fatal("the retired client was not stopped")
	}
	if c.ctx.Err() == nil {
		t.Fatal("the retired client's calls were not ended")
	}
	t.Logf("retired %v after the commit began its second phase", time.Since(start).Round(time.Millisecond))
}
