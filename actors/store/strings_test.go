package store

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers"
	"github.com/rekv/rekv/drivers/driverstest"
)

// TestStringModel runs random writes, SETs, renames and reads of one
// string against a plain byte slice, across commits, so that every path
// (inline, growing past the inline limit, sparse chunks, zero chunks,
// overwrite by SET) is checked against what the bytes must be.
func TestStringModel(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		d := open(t)
		c := NewMetaCache(100)
		rng := rand.New(rand.NewPCG(seed, 7))
		var model []byte
		key := []byte("s")
		tx := begin(t, d, c)
		for step := 0; step < 200; step++ {
			switch op := rng.IntN(10); {
			case op < 5: // a range write, sometimes far away, sometimes zeros
				off := rng.Int64N(int64(len(model)) + 3*chunk)
				if rng.IntN(8) == 0 {
					off = rng.Int64N(40 * chunk)
				}
				data := make([]byte, rng.IntN(2*chunk+10))
				if rng.IntN(3) > 0 {
					for i := range data {
						data[i] = byte(rng.IntN(4)) // many zero bytes
					}
				}
				s, err := tx.OpenString(key)
				if err != nil {
					t.Fatal(err)
				}
				if err := s.Write(off, data); err != nil {
					t.Fatal(err)
				}
				if need := off + int64(len(data)); int64(len(model)) < need {
					model = append(model, make([]byte, need-int64(len(model)))...)
				}
				copy(model[off:], data)
			case op < 6: // SET, short or long
				v := make([]byte, rng.IntN(3*chunk))
				for i := range v {
					v[i] = byte('a' + rng.IntN(3))
				}
				if err := tx.SetString(key, v, 0); err != nil {
					t.Fatal(err)
				}
				model = v
			case op < 7: // RENAME away and back
				if ok, _ := tx.Exists(key); ok {
					if err := tx.Rename(key, []byte("tmp")); err != nil {
						t.Fatal(err)
					}
					if err := tx.Rename([]byte("tmp"), key); err != nil {
						t.Fatal(err)
					}
				}
			case op < 8:
				if err := tx.Commit(); err != nil {
					t.Fatal(err)
				}
				tx = begin(t, d, c)
			default: // a random range read
				s, err := tx.OpenString(key)
				if err != nil {
					t.Fatal(err)
				}
				off := rng.Int64N(int64(len(model)) + 10)
				n := rng.Int64N(3 * chunk)
				got, err := s.Read(off, n)
				if err != nil {
					t.Fatal(err)
				}
				want := []byte{}
				if off < int64(len(model)) {
					want = model[off:min(off+n, int64(len(model)))]
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("seed %d step %d: Read(%d, %d) differs (len %d vs %d)", seed, step, off, n, len(got), len(want))
				}
			}
			got, ok, err := tx.GetString(key)
			if err != nil {
				t.Fatal(err)
			}
			if ok != (model != nil) || !bytes.Equal(got, model) {
				t.Fatalf("seed %d step %d: value differs: len %d, want %d", seed, step, len(got), len(model))
			}
			m, _, _ := tx.Meta(key)
			if ok && m.Chunked != (len(model) > codec.StringInlineMax) {
				t.Fatalf("seed %d step %d: chunked=%v at length %d", seed, step, m.Chunked, len(model))
			}
		}
		tx.Rollback()
	}
}

// TestChunkedStringStorageWork pins what a bit in a huge sparse string
// costs: one chunk read and one written, whatever the length.
func TestChunkedStringStorageWork(t *testing.T) {
	cd := &driverstest.Counting{Driver: open(t)}
	c := NewMetaCache(100)
	key := []byte("bitmap")
	write := func(off int64, b byte) (reads, writes int64) {
		tx := begin(t, cd, c)
		r0, w0 := cd.Reads.Load(), cd.Writes.Load()
		s, err := tx.OpenString(key)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Write(off, []byte{b}); err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		return cd.Reads.Load() - r0, cd.Writes.Load() - w0
	}
	const last = 1<<29 - 1 // the last byte of a 512 MiB string
	write(last, 0x01)      // creates it: 64K chunks, one stored
	reads, writes := write(last-100, 0x80)
	t.Logf("one byte written in a 512 MiB sparse string: %d reads, %d writes", reads, writes)
	if reads > 2 || writes > 2 { // the meta (cached) + one chunk read; chunk + meta written
		t.Fatalf("one byte in a 512 MiB string: %d reads, %d writes", reads, writes)
	}
	tx := begin(t, d0(cd), c)
	defer tx.Rollback()
	s, err := tx.OpenString(key)
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != last+1 || !s.Chunked() {
		t.Fatalf("len %d chunked %v", s.Len(), s.Chunked())
	}
	var stored int
	prefix := codec.SubKeyPrefix(0, key, s.meta.Version)
	err = tx.txn.Iterate(prefix, codec.PrefixEnd(prefix), drivers.IterOptions{}, func(k, v []byte) (bool, error) {
		stored++
		return true, nil
	})
	if err != nil || stored != 1 {
		t.Fatalf("%d chunks stored, want 1 (%v)", stored, err)
	}
	got, err := s.Read(last-100, 101)
	if err != nil || got[0] != 0x80 || got[100] != 0x01 || bytes.Count(got, []byte{0}) != 99 {
		t.Fatalf("read back %x, %v", got, err)
	}
}

func d0(c *driverstest.Counting) drivers.Driver { return c.Driver }

// TestChunkedStringLifecycle checks that a chunked string's version is
// left to the GC when it is replaced or deleted, and that WRONGTYPE holds.
func TestChunkedStringLifecycle(t *testing.T) {
	d := open(t)
	tx := begin(t, d, nil)
	big := bytes.Repeat([]byte("x"), 3*chunk)
	if err := tx.SetString([]byte("k"), big, 0); err != nil {
		t.Fatal(err)
	}
	m1, _, _ := tx.Meta([]byte("k"))
	if err := tx.SetString([]byte("k"), []byte("small"), 0); err != nil {
		t.Fatal(err)
	}
	m2, _, _ := tx.Meta([]byte("k"))
	if m2.Version == m1.Version || m2.Chunked {
		t.Fatalf("replacing a chunked string kept version %d (chunked %v)", m2.Version, m2.Chunked)
	}
	if _, err := tx.txn.Get(codec.GarbageKey(0, []byte("k"), m1.Version)); err != nil {
		t.Fatalf("no garbage entry for the chunked version: %v", err)
	}
	if err := tx.SetString([]byte("k"), big, 0); err != nil {
		t.Fatal(err)
	}
	m3, _, _ := tx.Meta([]byte("k"))
	if ok, err := tx.Delete([]byte("k")); !ok || err != nil {
		t.Fatal(ok, err)
	}
	if _, err := tx.txn.Get(codec.GarbageKey(0, []byte("k"), m3.Version)); err != nil {
		t.Fatalf("DEL left no garbage entry: %v", err)
	}
	h, err := tx.Open([]byte("h"), codec.TypeHash, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Put([]byte("f"), []byte("v")); err != nil {
		t.Fatal(err)
	}
	if err := h.Grow(1); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.OpenString([]byte("h")); !errors.Is(err, rerr.ErrWrongType) {
		t.Fatalf("OpenString on a hash: %v", err)
	}
}

// TestUpdateStringKeepTTL: the update sees the value (or none), its
// result is stored with the key's expiry kept, its error leaves the key
// as it was, and a key of another type is WRONGTYPE without a call.
func TestUpdateStringKeepTTL(t *testing.T) {
	d := open(t)
	c := NewMetaCache(100)
	tx := begin(t, d, c)
	later := now + 60_000
	if err := tx.SetString([]byte("s"), []byte("41"), later); err != nil {
		t.Fatal(err)
	}
	h, err := tx.Open([]byte("h"), codec.TypeHash, true)
	if err != nil {
		t.Fatal(err)
	}
	must(t, h.Put([]byte("f"), []byte("v")))
	must(t, h.Grow(1))
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	big := bytes.Repeat([]byte("7"), codec.StringInlineMax+10) // chunked
	steps := []struct {
		key     string
		want    string // the value update is given; "-" for a missing key
		ret     []byte
		err     error
		wantErr error
		after   string // "-" for missing
		expire  int64
	}{
		{key: "s", want: "41", ret: []byte("42"), after: "42", expire: later},
		{key: "s", want: "42", err: rerr.ErrNotInteger, wantErr: rerr.ErrNotInteger, after: "42", expire: later},
		{key: "new", want: "-", ret: []byte("1"), after: "1"},
		{key: "nothing", want: "-", err: rerr.ErrOverflow, wantErr: rerr.ErrOverflow, after: "-"},
		{key: "h", wantErr: rerr.ErrWrongType},
		{key: "big", want: "-", ret: big, after: string(big)},
		{key: "big", want: string(big), ret: []byte("x"), after: "x"},
	}
	for i, st := range steps {
		tx := begin(t, d, c)
		called := false
		err := tx.UpdateStringKeepTTL([]byte(st.key), func(cur []byte, ok bool) ([]byte, error) {
			called = true
			if got := map[bool]string{true: string(cur), false: "-"}[ok]; got != st.want {
				t.Errorf("step %d: update given %.20q, want %.20q", i, got, st.want)
			}
			return st.ret, st.err
		})
		if !errors.Is(err, st.wantErr) || (err == nil) != (st.wantErr == nil) {
			t.Fatalf("step %d: err %v, want %v", i, err, st.wantErr)
		}
		if st.wantErr == rerr.ErrWrongType {
			if called {
				t.Errorf("step %d: update called for another type", i)
			}
			tx.Rollback()
			continue
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		tx = begin(t, d, c)
		v, ok, err := tx.GetString([]byte(st.key))
		if err != nil {
			t.Fatal(err)
		}
		if got := map[bool]string{true: string(v), false: "-"}[ok]; got != st.after {
			t.Errorf("step %d: %s is %.20q after, want %.20q", i, st.key, got, st.after)
		}
		if m, ok, _ := tx.Meta([]byte(st.key)); ok && m.ExpireAt != st.expire {
			t.Errorf("step %d: expiry %d, want %d", i, m.ExpireAt, st.expire)
		}
		tx.Rollback()
	}
}
