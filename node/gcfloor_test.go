package node

import (
	"io"
	"log/slog"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/rekv/rekv/conf"
)

func TestGCFloorPercent(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		name  string
		floor uint64
		base  int
		live  uint64
		want  int
	}{
		{"a small live heap grows to the floor", 64 * mib, 100, 13 * mib, 392},
		{"at half the floor the base reaches it", 64 * mib, 100, 32 * mib, 100},
		{"a big live heap keeps the base", 64 * mib, 100, 500 * mib, 100},
		{"a higher base that reaches the floor stays", 64 * mib, 400, 13 * mib, 400},
		{"a lower base is raised", 64 * mib, 50, 40 * mib, 60},
		{"a tiny live heap is bounded", 64 * mib, 100, 1024, maxFloorPercent},
		{"no collection yet", 64 * mib, 100, 0, 100},
		{"off stays off", 64 * mib, -1, 13 * mib, -1},
	} {
		f := gcFloor{floor: c.floor, base: c.base}
		if got := f.percent(c.live); got != c.want {
			t.Errorf("%s: percent(%d) = %d, want %d", c.name, c.live, got, c.want)
		}
		// What it sets puts the next collection at the floor, or past it.
		if p := f.percent(c.live); p > 0 && p < maxFloorPercent && c.live > 0 {
			if goal := c.live + c.live*uint64(p)/100; goal+c.live/100 < c.floor {
				t.Errorf("%s: the next collection at %d bytes, before the floor %d", c.name, goal, c.floor)
			}
		}
	}
}

// TestStartGCFloor: a process with a small live heap (this test's) gets
// a percentage that puts its next collection at the floor, and stop puts
// the percentage it found back.
func TestStartGCFloor(t *testing.T) {
	base := debug.SetGCPercent(100)
	defer debug.SetGCPercent(base)
	runtime.GC()
	stop := StartGCFloor(conf.Runtime{GCFloorMiB: 1024}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	gogc := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	var got int
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		metrics.Read(gogc)
		if got = int(gogc[0].Value.Uint64()); got != 100 {
			break
		}
	}
	stop()
	if got <= 100 {
		t.Fatalf("GC percentage %d with a 1 GiB floor and a live heap of a few MiB", got)
	}
	if p := debug.SetGCPercent(100); p != 100 {
		t.Fatalf("stop left the percentage at %d, want 100 back", p)
	}
	if s := StartGCFloor(conf.Runtime{}, nil); s == nil {
		t.Fatal("a zero floor returned no stop")
	}
}
