package namespaces

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/rekv/rekv/codec"
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
			var got []string
			for _, ns := range r.All() {
				got = append(got, fmt.Sprint(ns.Name, " ", ns.Token, " ", ns.ID))
			}
			if fmt.Sprint(got) != "[app1 t1 1 app2 t2b 2]" {
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
			r.retryAfter = time.Hour // a miss reads the store again only when the test says
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
			if _, err := other.Add("d", "td"); err != nil {
				t.Fatal(err)
			}
			r.retryAfter = 0
			if ns, ok := r.ByToken("td"); !ok || ns.Name != "d" {
				t.Errorf("a token another registry added, looked up: %+v %v (a miss reads the store)", ns, ok)
			}
		})
	}
}

// TestQuotas: a namespace's quotas are stored by id, read back by every
// registry, refused when negative or for the default namespace, and
// removed with the namespace; its usage (written by the GC's meter) is
// read with it.
func TestQuotas(t *testing.T) {
	for name, drv := range stores(t) {
		t.Run(name, func(t *testing.T) {
			r, _ := Load(drv)
			a, _ := r.Add("a", "ta")
			q := Quota{Keys: 10, Bytes: 1 << 20, Ops: 100, Clients: 3}
			if err := r.SetQuota("a", q); err != nil {
				t.Fatal(err)
			}
			for _, tc := range []struct {
				what string
				err  error
				want error
			}{
				{"a negative quota", r.SetQuota("a", Quota{Keys: -1}), ErrQuota},
				{"the default's", r.SetQuota(Default, q), ErrDefault},
				{"an unknown namespace's", r.SetQuota("nope", q), ErrNotFound},
			} {
				if !errors.Is(tc.err, tc.want) {
					t.Errorf("%s: %v, want %v", tc.what, tc.err, tc.want)
				}
			}
			tx, _ := drv.Begin(true)
			_ = tx.Set(codec.NamespaceUsageKey(a.ID), codec.EncodeInts(7, 700, 1234))
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
			other, err := Load(drv)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := other.ByID(a.ID)
			if got.Quota != q || got.Usage.Keys != 7 || got.Usage.Bytes != 700 || got.Usage.At.UnixMilli() != 1234 {
				t.Errorf("loaded: %+v", got)
			}
			if _, err := r.Del("a"); err != nil {
				t.Fatal(err)
			}
			b, _ := r.Add("a", "ta")
			if got, _ := r.ByID(b.ID); got.Quota != (Quota{}) || got.Usage != (Usage{}) {
				t.Errorf("a added again has %+v", got)
			}
			tx, _ = drv.Begin(false)
			defer tx.Rollback()
			for _, k := range [][]byte{codec.NamespaceQuotaKey(a.ID), codec.NamespaceUsageKey(a.ID)} {
				if _, err := tx.Get(k); !errors.Is(err, drivers.ErrNotFound) {
					t.Errorf("%q after NAMESPACE DEL: %v", k, err)
				}
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

// TestReplace: a replica takes its master's definitions (Encode, Decode,
// Replace): names, tokens, ids and quotas as the master's, the others
// removed and reported, and the next id past the highest taken.
func TestReplace(t *testing.T) {
	for name, drv := range stores(t) {
		t.Run(name, func(t *testing.T) {
			master, _ := Load(badgerStore(t))
			a, _ := master.Add("a", "ta")
			_, _ = master.Add("gone", "tg")
			_, _ = master.Del("gone")
			b, _ := master.Add("b", "tb")
			_ = master.SetQuota("b", Quota{Keys: 5})
			defs, err := Decode(Encode(master.All()))
			if err != nil {
				t.Fatal(err)
			}
			replica, _ := Load(drv)
			// The replica's id 1 becomes the master's a; its id 2
			// (named a here) is none of the master's.
			if l, _ := replica.Add("local", "tl"); l.ID != a.ID {
				t.Fatalf("local id %d", l.ID)
			}
			stale, _ := replica.Add("a", "old-token")
			removed, err := replica.Replace(defs)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(removed) != fmt.Sprint([]uint32{stale.ID}) {
				t.Errorf("removed %v, want [%d]", removed, stale.ID)
			}
			var got []string
			for _, ns := range replica.All() {
				got = append(got, fmt.Sprint(ns.Name, " ", ns.Token, " ", ns.ID, " ", ns.Quota.Keys))
			}
			if want := fmt.Sprint([]string{fmt.Sprint("a ta ", a.ID, " 0"), fmt.Sprint("b tb ", b.ID, " 5")}); fmt.Sprint(got) != want {
				t.Errorf("after Replace: %v, want %v", got, want)
			}
			if c, err := replica.Add("c", "tc"); err != nil || c.ID <= b.ID {
				t.Errorf("added after Replace: %+v %v (the master's highest id is %d)", c, err, b.ID)
			}
			for _, bad := range []string{"x", `[{"id":0,"name":"a","token":"t"}]`, `[{"id":1,"name":"","token":"t"}]`} {
				if _, err := Decode([]byte(bad)); err == nil {
					t.Errorf("Decode %s: no error", bad)
				}
			}
		})
	}
}

// badgerStore opens an in-memory Badger store of its own.
func badgerStore(t *testing.T) drivers.Driver {
	t.Helper()
	b, err := badger.Open(badger.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b
}
