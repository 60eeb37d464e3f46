package tikv

import (
	"strings"
	"testing"
	"time"

	"github.com/rekv/rekv/drivers"
	"github.com/rekv/rekv/drivers/driverstest"
)

func TestConformanceMock(t *testing.T) {
	driverstest.Run(t, func(t *testing.T) drivers.Driver {
		d, err := Open(Options{PD: []string{MockPD}})
		if err != nil {
			t.Fatal(err)
		}
		return d
	})
}

// TestSharedMockNodes: two DBs on one mock see each other's commits and
// conflict with each other, as two nodes on one cluster do.
func TestSharedMockNodes(t *testing.T) {
	m, err := NewMock()
	if err != nil {
		t.Fatal(err)
	}
	a, err := m.Open(Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := m.Open(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := a.Close(); err != nil {
			t.Error(err)
		}
		if err := b.Close(); err != nil {
			t.Error(err)
		}
		if err := m.Close(); err != nil {
			t.Error(err)
		}
	}()
	ta, _ := a.Begin(true)
	tb, _ := b.Begin(true)
	if err := ta.Set([]byte("k"), []byte("a")); err != nil {
		t.Fatal(err)
	}
	if err := tb.Set([]byte("k"), []byte("b")); err != nil {
		t.Fatal(err)
	}
	if err := ta.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := tb.Commit(); err == nil {
		t.Fatal("second node's write of the same key committed too")
	}
	rb, _ := b.Begin(false)
	defer rb.Rollback()
	if v, err := rb.Get([]byte("k")); err != nil || string(v) != "a" {
		t.Fatalf("node b reads %q, %v", v, err)
	}
	va, _ := a.NextVersion()
	vb, _ := b.NextVersion()
	if vb <= va {
		t.Fatalf("versions from two nodes not ordered: %d then %d", va, vb)
	}
}

// TestConnectDeadline: an unreachable PD fails within the deadline with
// an error naming the address, instead of client-go's minutes of retries.
func TestConnectDeadline(t *testing.T) {
	start := time.Now()
	_, err := Open(Options{PD: []string{"127.0.0.1:1"}, ConnectTimeout: 2 * time.Second})
	if err == nil {
		t.Fatal("Open of an unreachable PD succeeded")
	}
	if !strings.Contains(err.Error(), "127.0.0.1:1") {
		t.Fatalf("error does not name the address: %v", err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Fatalf("Open took %v", d)
	}
}
