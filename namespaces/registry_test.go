package namespaces

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/rekv/rekv/drivers"
	"github.com/rekv/rekv/drivers/badger"
	"github.com/rekv/rekv/drivers/tikv"
)

// stores opens each driver the registry runs on: Badger in memory and
// client-go's in-process TiKV mock.
func stores(t *testing.T) map[string]drivers.Driver {
	t.Helper()
	b, err := badger.Open(badger.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	k, err := tikv.Open(tikv.Options{PD: []string{tikv.MockPD}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close(); _ = k.Close() })
	return map[string]drivers.Driver{"badger": b, "tikv": k}
}

// TestRules: names and tokens are unique, the default namespace cannot
// be touched, and each change says why it was refused.
func TestRules(t *testing.T) {
	for name, drv := range stores(t) {
		t.Run(name, func(t *testing.T) {
			r, err := Load(drv)
			if err != nil {
				t.Fatal(err)
			}
			a, err := r.Add("app1", "t1")
			if err != nil || a.ID != 1 {
				t.Fatalf("add app1: %+v, %v", a, err)
			}
			if b, err := r.Add("app2", "t2"); err != nil || b.ID != 2 {
				t.Fatalf("add app2: %+v, %v", b, err)
			}
			for _, tc := range []struct {
				what string
				err  error
				want error
			}{
				{"add an existing name", second(r.Add("app1", "t9")), ErrExists},
				{"add a taken token", second(r.Add("app3", "t1")), ErrTokenExists},
				{"add the default", second(r.Add(Default, "t9")), ErrDefault},
				{"add an empty name", second(r.Add("", "t9")), ErrName},
				{"add a 256-byte name", second(r.Add(string(make([]byte, 256)), "t9")), ErrName},
				{"add an empty token", second(r.Add("app3", "")), ErrToken},
				{"set an unknown name", r.Set("nope", "t9"), ErrNotFound},
				{"set a taken token", r.Set("app2", "t1"), ErrTokenExists},
				{"set the default", r.Set(Default, "t9"), ErrDefault},
				{"del an unknown name", second(r.Del("nope")), ErrNotFound},
				{"del the default", second(r.Del(Default)), ErrDefault},
				{"set a token anew", r.Set("app2", "t2b"), nil},
				{"set its own token again", r.Set("app2", "t2b"), nil},
			} {
				if !errors.Is(tc.err, tc.want) || (tc.want == nil) != (tc.err == nil) {
					t.Errorf("%s: %v, want %v", tc.what, tc.err, tc.want)
				}
			}
			if ns, ok := r.ByToken("t2b"); !ok || ns.Name != "app2" || ns.ID != 2 {
				t.Errorf("by token t2b: %+v %v", ns, ok)
			}
			if _, ok := r.ByToken("t2"); ok {
				t.Error("the replaced token still leads in")
			}
			if got := fmt.Sprint(r.All()); got != "[{app1 t1 1} {app2 t2b 2}]" {
				t.Errorf("all = %s", got)
			}
		})
	}
}

// TestIDsAreNeverReused: a deleted namespace's id is not given again,
// and what the store holds survives a new Load (a restart, another node).
func TestIDsAreNeverReused(t *testing.T) {
	for name, drv := range stores(t) {
		t.Run(name, func(t *testing.T) {
			r, _ := Load(drv)
			a, _ := r.Add("a", "ta")
			gone, err := r.Del("a")
			if err != nil || gone != a {
				t.Fatalf("del a: %+v, %v (added %+v)", gone, err, a)
			}
			b, err := r.Add("a", "ta")
			if err != nil || b.ID == a.ID {
				t.Fatalf("a again: %+v, %v; the deleted one had id %d", b, err, a.ID)
			}
			other, err := Load(drv)
			if err != nil {
				t.Fatal(err)
			}
			if ns, ok := other.Get("a"); !ok || ns != b {
				t.Errorf("loaded again: %+v %v, want %+v", ns, ok, b)
			}
			if _, err := other.Add("c", "tc"); err != nil {
				t.Fatal(err)
			}
			if _, ok := r.Get("c"); ok {
				t.Error("seen before Reload")
			}
			if err := r.Reload(); err != nil {
				t.Fatal(err)
			}
			if ns, ok := r.Get("c"); !ok || ns.ID != b.ID+1 {
				t.Errorf("after Reload: %+v %v", ns, ok)
			}
		})
	}
}

// TestConcurrentAdds: registries on one store (nodes) adding at once get
// distinct ids, and of two adds with one token exactly one wins.
func TestConcurrentAdds(t *testing.T) {
	for name, drv := range stores(t) {
		t.Run(name, func(t *testing.T) {
			const n = 8
			var wg sync.WaitGroup
			ids := make([]uint32, n)
			errs := make([]error, n)
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					r, err := Load(drv)
					if err == nil {
						var ns Namespace
						ns, err = r.Add(fmt.Sprint("ns", i), fmt.Sprint("token", i%(n-1))) // two share token0
						ids[i] = ns.ID
					}
					errs[i] = err
				}()
			}
			wg.Wait()
			seen, tokenLost := map[uint32]bool{}, 0
			for i, err := range errs {
				switch {
				case errors.Is(err, ErrTokenExists):
					tokenLost++
				case err != nil:
					t.Errorf("add %d: %v", i, err)
				case seen[ids[i]]:
					t.Errorf("id %d given twice", ids[i])
				default:
					seen[ids[i]] = true
				}
			}
			if tokenLost != 1 || len(seen) != n-1 {
				t.Errorf("%d adds refused for a taken token (want 1), %d namespaces added (want %d)", tokenLost, len(seen), n-1)
			}
		})
	}
}

func second[T any](_ T, err error) error { return err }
