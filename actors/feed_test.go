package actors

import (
	"fmt"
	stdstrings "strings"
	"sync"
	"testing"
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/command/hash"
	"github.com/rekv/rekv/actors/command/keys"
	"github.com/rekv/rekv/actors/command/set"
	"github.com/rekv/rekv/actors/command/strings"
	"github.com/rekv/rekv/actors/command/zset"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/resp"
)

// sink collects the effects streamed, as command lines with their db.
type sink struct {
	mu    sync.Mutex
	lines []string
}

func (s *sink) Append(fx []store.Effect) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range fx {
		res, err := resp.Parse(e.Cmd, resp.DefaultLimits(), nil)
		if err != nil || res.N != len(e.Cmd) {
			s.lines = append(s.lines, fmt.Sprintf("malformed %q", e.Cmd))
			continue
		}
		var parts []string
		for _, a := range res.Args {
			parts = append(parts, string(a))
		}
		s.lines = append(s.lines, fmt.Sprintf("%d:%s", e.DB, stdstrings.Join(parts, " ")))
	}
}

func (s *sink) take() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.lines
	s.lines = nil
	return out
}

// What reaches a replication sink: writes as sent, or their effect form;
// nothing for reads or writes that changed nothing.
func TestSinkEffects(t *testing.T) {
	reg := command.NewRegistry(strings.Commands(), keys.Commands(), set.Commands(), zset.Commands())
	e := newEngine(t, reg, 2)
	sk := &sink{}
	e.SetSink(sk)
	for _, tc := range []struct {
		line string
		want []string
	}{
		{"SET a 1", []string{"0:SET a 1"}},
		{"GET a", nil},
		{"SET a 2 NX", nil}, // not set: nothing changed
		{"INCRBYFLOAT f 1.5", []string{"0:SET f 1.5 KEEPTTL"}},
		{"SADD s x", []string{"0:SADD s x"}},
		{"SPOP s", []string{"0:SREM s x"}},
		{"SPOP s", nil},
		{"EXPIRE a -1", []string{"0:DEL a"}},
		{"DEL nothing", nil},
		{"SET g 1", []string{"0:SET g 1"}},
		{"GETDEL g", []string{"0:DEL g"}}, // as Redis (unit/type/string)
		{"GETDEL g", nil},
		// Pops from sorted sets go out as Redis sends them (unit/type/zset).
		{"ZADD z 1 a 2 b 3 c", []string{"0:ZADD z 1 a 2 b 3 c"}},
		{"ZMPOP 1 z MIN COUNT 5", []string{"0:ZPOPMIN z 3"}},
		{"ZMPOP 1 z MAX", nil},
		{"ZADD z 1 a", []string{"0:ZADD z 1 a"}},
		{"BZPOPMAX z 0", []string{"0:ZPOPMAX z"}},
	} {
		send(t, e, reg, []string{tc.line}, nil)
		if got := sk.take(); fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: streamed %q, want %q", tc.line, got, tc.want)
		}
	}
	// A relative expiry goes out absolute.
	send(t, e, reg, []string{"SET b v EX 100"}, nil)
	got := sk.take()
	if len(got) != 1 || !stdstrings.HasPrefix(got[0], "0:SET b v PXAT ") {
		t.Fatalf("SET EX streamed %q", got)
	}
	// RESTORE with a relative TTL goes out as sent, its TTL absolute and
	// ABSTTL added (REPLACE only when sent), as Redis rewrites it.
	dump := send(t, e, reg, []string{"DUMP b"}, nil)[0]
	payload := []byte(dump[stdstrings.Index(dump, "\r\n")+2 : len(dump)-2])
	for _, tc := range []struct{ extra, want string }{{"", "RESTORE r TTL PAYLOAD ABSTTL"}, {"REPLACE", "RESTORE r TTL PAYLOAD REPLACE ABSTTL"}} {
		args := [][]byte{[]byte("RESTORE"), []byte("r"), []byte("100000"), payload}
		if tc.extra != "" {
			args = append(args, []byte(tc.extra))
		}
		spec, run := parsed(t, reg, args)
		send(t, e, reg, []string{""}, map[int]*Request{0: {Spec: spec, Runner: run, Args: args, Proto: 2, Shards: e.Route(spec, args)}})
		got := sk.take()
		abs := ""
		if len(got) == 1 {
			f := stdstrings.Fields(stdstrings.ReplaceAll(got[0], string(payload), "PAYLOAD"))
			if len(f) >= 3 {
				abs, f[2] = f[2], "TTL"
			}
			if stdstrings.Join(f, " ") == "0:"+tc.want && len(abs) == 13 {
				send(t, e, reg, []string{"DEL r"}, nil)
				sk.take()
				continue
			}
		}
		t.Errorf("RESTORE r 100000 <payload> %s streamed %q, want %q with an absolute TTL", tc.extra, got, tc.want)
	}
}

// Hash-field expiries go out absolute (HPEXPIREAT, HSETEX ... PXAT), and
// as HDEL of the fields an expiry already past deleted; what changed
// nothing goes nowhere.
func TestSinkFieldExpiries(t *testing.T) {
	reg := command.NewRegistry(hash.Commands())
	e := newEngine(t, reg, 1)
	sk := &sink{}
	e.SetSink(sk)
	abs := func(line string) string { // the absolute time replaced by "T"
		parts := stdstrings.Fields(line)
		for i, p := range parts {
			p = p[stdstrings.IndexByte(p, ':')+1:] // the first has its db
			if (p == "HPEXPIREAT" || p == "PXAT") && i+2 < len(parts) {
				at := parts[i+2]
				if p == "PXAT" {
					at = parts[i+1]
				}
				var ms int64
				if _, err := fmt.Sscan(at, &ms); err != nil || ms < time.Now().UnixMilli() {
					return line + " (not a future time)"
				}
				if p == "PXAT" {
					parts[i+1] = "T"
				} else {
					parts[i+2] = "T"
				}
			}
		}
		return stdstrings.Join(parts, " ")
	}
	for _, tc := range []struct {
		line string
		want []string
	}{
		{"HSET h f 1 g 2 k 3", []string{"0:HSET h f 1 g 2 k 3"}},
		{"HEXPIRE h 100 FIELDS 2 f nofield", []string{"0:HPEXPIREAT h T FIELDS 1 f"}},
		{"HEXPIRE h 100 NX FIELDS 1 f", nil}, // f has a TTL: nothing changed
		{"HPEXPIRE h 0 FIELDS 2 f g", []string{"0:HDEL h f g"}},
		{"HSETEX h EX 100 FIELDS 1 f v", []string{"0:HSETEX h PXAT T FIELDS 1 f v"}},
		{"HGETEX h PX 100000 FIELDS 2 k nofield", []string{"0:HPEXPIREAT h T FIELDS 1 k"}},
		{"HGETEX h PERSIST FIELDS 1 k", []string{"0:HGETEX h PERSIST FIELDS 1 k"}},
		{"HGETEX h EX 100 FIELDS 1 nofield", nil},
		{"HSETEX h PXAT 1 FIELDS 1 f v", []string{"0:HDEL h f"}},
	} {
		send(t, e, reg, []string{tc.line}, nil)
		var got []string
		for _, l := range sk.take() {
			got = append(got, abs(l))
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: streamed %q, want %q", tc.line, got, tc.want)
		}
	}
}

// A write to a key that has expired deletes it first on a replica too
// (which keeps expired keys until told), atomically with the write.
func TestSinkExpiredKey(t *testing.T) {
	reg := command.NewRegistry(strings.Commands(), keys.Commands())
	e := newEngine(t, reg, 1)
	sk := &sink{}
	e.SetSink(sk)
	send(t, e, reg, []string{"SET k 5 PX 1"}, nil)
	time.Sleep(5 * time.Millisecond)
	send(t, e, reg, []string{"INCR k"}, nil)
	got := sk.take()
	want := []string{"0:MULTI", "0:DEL k", "0:INCR k", "-1:EXEC"}
	if len(got) != 5 || fmt.Sprint(got[1:]) != fmt.Sprint(want) {
		t.Fatalf("streamed %q, want a SET then %q", got, want)
	}
}

// A transaction begun before the sink was set recorded no effects: its
// commit is refused (a conflict), so it runs again and records them.
func TestSinkLateTransaction(t *testing.T) {
	reg := command.NewRegistry(strings.Commands(), keys.Commands())
	e := newEngine(t, reg, 1)
	tx, err := store.Env{Drv: e.drv, Markers: e.markers}.Begin(true, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if err := tx.SetString([]byte("k"), []byte("v"), 0); err != nil {
		t.Fatal(err)
	}
	e.SetSink(&sink{})
	if err := e.commit(tx); err == nil {
		t.Fatal("a transaction with unrecorded writes committed after SetSink")
	}
}
