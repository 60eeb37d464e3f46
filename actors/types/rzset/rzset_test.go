package rzset_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/rekv/rekv/actors/store/storetest"
	"github.com/rekv/rekv/actors/types/rzset"
	"github.com/rekv/rekv/codec"
)

func members(es []rzset.Entry) string {
	s := ""
	for _, e := range es {
		s += fmt.Sprintf("%s=%g ", e.Member, e.Score)
	}
	return s
}

func TestScoresRanksAndRanges(t *testing.T) {
	st := storetest.New(t)
	tx := st.Begin()
	z, ok, err := rzset.Open(tx, []byte("z"), true)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	lim := codec.ListpackLimits{Entries: 128, Value: 64}
	batch := z.Batch(lim)
	for _, e := range []rzset.Entry{{Member: []byte("b"), Score: 2}, {Member: []byte("a"), Score: 1},
		{Member: []byte("c"), Score: 2}, {Member: []byte("n"), Score: math.Inf(-1)}, {Member: []byte("d"), Score: math.Copysign(0, -1)}} {
		isNew, err := batch.Set(e.Member, e.Score)
		if err != nil || !isNew {
			t.Fatalf("Set %s: new=%v err=%v", e.Member, isNew, err)
		}
	}
	if isNew, err := batch.Set([]byte("a"), 3); err != nil || isNew {
		t.Fatalf("re-score a: new=%v err=%v", isNew, err)
	}
	if z.Size() != 0 {
		t.Fatalf("size %d before the batch closed", z.Size())
	}
	if n, err := batch.Close(); n != 5 || err != nil || z.Size() != 5 {
		t.Fatalf("Close = %d %v, size %d; want 5 and 5", n, err, z.Size())
	}
	if n, err := z.SetAll([]rzset.Entry{{Member: []byte("a"), Score: 3}, {Member: []byte("e"), Score: 9}}, lim); n != 1 || err != nil || z.Size() != 6 {
		t.Fatalf("SetAll = %d %v, size %d; want 1 and 6", n, err, z.Size())
	}
	if n, err := z.RemoveMembers([][]byte{[]byte("e")}); n != 1 || err != nil || z.Size() != 5 {
		t.Fatalf("RemoveMembers = %d %v, size %d; want 1 and 5", n, err, z.Size())
	}
	st.Commit(tx)

	tx = st.Begin()
	z, _, _ = rzset.Open(tx, []byte("z"), false)
	if s, ok, err := z.Score([]byte("a")); err != nil || !ok || s != 3 {
		t.Fatalf("score a = %v %v %v", s, ok, err)
	}
	if s, _, _ := z.Score([]byte("d")); math.Signbit(s) {
		t.Error("-0 stored with its sign")
	}
	all, err := z.ByRank(0, -1, false)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := members(all), "n=-Inf d=0 b=2 c=2 a=3 "; got != want {
		t.Errorf("ByRank = %q, want %q", got, want)
	}
	rev, _ := z.ByRank(0, 1, true)
	if got, want := members(rev), "a=3 c=2 "; got != want {
		t.Errorf("ByRank rev = %q, want %q", got, want)
	}
	if r, err := z.Rank([]byte("c"), 2, false); err != nil || r != 3 {
		t.Errorf("Rank c = %d %v", r, err)
	}
	if r, _ := z.Rank([]byte("c"), 2, true); r != 1 {
		t.Errorf("Rank c rev = %d", r)
	}
	byScore, _ := z.ByScore(rzset.ScoreBound{V: 0, Excl: true}, rzset.ScoreBound{V: 3}, false, 1, -1)
	if got, want := members(byScore), "c=2 a=3 "; got != want {
		t.Errorf("ByScore (0,3] offset 1 = %q, want %q", got, want)
	}
	byLex, _ := z.ByLex(rzset.LexBound{V: []byte("b")}, rzset.LexBound{V: []byte("d"), Excl: true}, false, 0, -1)
	// Scores differ, so ByLex walks in score order as Redis does: the
	// last member (a) is under min, so the range is empty.
	if got, want := members(byLex), ""; got != want {
		t.Errorf("ByLex [b,d) = %q, want %q", got, want)
	}
	byLex, _ = z.ByLex(rzset.LexBound{Neg: true}, rzset.LexBound{Plus: true}, false, 0, -1)
	if got, want := members(byLex), "n=-Inf d=0 b=2 c=2 a=3 "; got != want {
		t.Errorf("ByLex [-,+] = %q, want %q", got, want)
	}
	n, err := z.RemoveMembers([][]byte{[]byte("a"), []byte("x"), []byte("n")})
	if err != nil || n != 2 || z.Size() != 3 {
		t.Fatalf("RemoveMembers = %d %v, size %d", n, err, z.Size())
	}
	left, _ := z.ByRank(0, -1, false)
	if got, want := members(left), "d=0 b=2 c=2 "; got != want {
		t.Errorf("after remove = %q, want %q", got, want)
	}
}

func TestMissingKeyReadsEmpty(t *testing.T) {
	tx := storetest.New(t).Begin()
	z, ok, err := rzset.Open(tx, []byte("none"), false)
	if err != nil || ok {
		t.Fatal(ok, err)
	}
	if _, ok, err := z.Score([]byte("a")); ok || err != nil {
		t.Error("score of a missing key", ok, err)
	}
	if es, err := z.ByScore(rzset.ScoreBound{V: math.Inf(-1)}, rzset.ScoreBound{V: math.Inf(1)}, false, 0, -1); len(es) != 0 || err != nil {
		t.Error("ByScore of a missing key", es, err)
	}
}

func TestDecodeScoreRejectsBadValues(t *testing.T) {
	if _, err := rzset.DecodeScore([]byte{1, 2, 3}); err == nil {
		t.Error("a 3-byte score decoded")
	}
}

// TestConverts: a sorted set is marked converted (Redis's listpack turned
// skiplist) by a new member too long or by more members than the limit,
// not by a long member's score changing, and stays so.
func TestConverts(t *testing.T) {
	st := storetest.New(t)
	tx := st.Begin()
	lim := codec.ListpackLimits{Entries: 2, Value: 3}
	es := func(ms ...string) []rzset.Entry {
		var out []rzset.Entry
		for i, m := range ms {
			out = append(out, rzset.Entry{Member: []byte(m), Score: float64(i)})
		}
		return out
	}
	for _, tc := range []struct {
		name    string
		adds    [][]rzset.Entry
		convert bool
	}{
		{"small", [][]rzset.Entry{es("a", "b"), es("a", "b")}, false},
		{"too many", [][]rzset.Entry{es("a", "b"), es("c")}, true},
		{"long member", [][]rzset.Entry{es("abcd")}, true},
	} {
		z, _, err := rzset.Open(tx, []byte(tc.name), true)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range tc.adds {
			if _, err := z.SetAll(a, lim); err != nil {
				t.Fatal(err)
			}
		}
		if z.Converted() != tc.convert {
			t.Errorf("%s: converted %v, want %v", tc.name, z.Converted(), tc.convert)
		}
	}
	z, _, _ := rzset.Open(tx, []byte("too many"), false)
	if _, err := z.RemoveMembers([][]byte{[]byte("a"), []byte("b")}); err != nil {
		t.Fatal(err)
	}
	st.Commit(tx)
	tx = st.Begin()
	if z, ok, _ := rzset.Open(tx, []byte("too many"), false); !ok || !z.Converted() {
		t.Error("a set shrunk below the limit is no longer marked converted")
	}
}
