package gc

import (
	"testing"
	"time"
)

func TestPaceCapsOnlyWhileClientsSendCommands(t *testing.T) {
	var cmds int64
	c := &Collector{o: Options{MaxKeysPerSecond: 1000, Foreground: func() int64 { return cmds }}}
	c.clientsActive() // the first look
	cases := []struct {
		name string
		sent int64 // commands clients sent since the last pass
		n    int
		took time.Duration
		want time.Duration
	}{
		{"clients: capped", 5, 1000, 0, time.Second},
		{"clients: the pass's own time counts", 1, 500, 200 * time.Millisecond, 300 * time.Millisecond},
		{"clients: a slow pass waits no more", 1, 100, time.Second, 0},
		{"no clients: at once", 0, 1000, 0, 0},
		{"clients again", 3, 2000, 0, 2 * time.Second},
	}
	for _, tc := range cases {
		cmds += tc.sent
		if got := c.pace(tc.n, tc.took); got != tc.want {
			t.Errorf("%s: pace(%d, %v) = %v, want %v", tc.name, tc.n, tc.took, got, tc.want)
		}
	}
	uncapped := &Collector{o: Options{Foreground: func() int64 { cmds++; return cmds }}}
	if got := uncapped.pace(1000, 0); got != 0 {
		t.Errorf("no cap: pace = %v", got)
	}
	always := &Collector{o: Options{MaxKeysPerSecond: 1000}} // no Foreground: always capped
	if got := always.pace(1000, 0); got != time.Second {
		t.Errorf("without Foreground: pace = %v", got)
	}
}

func TestSampleRates(t *testing.T) {
	c := &Collector{stats: &Stats{}}
	t0 := time.Unix(1000, 0)
	c.sampleRates(t0)
	c.stats.KeysExpired.Add(3000)
	c.stats.SubkeysDeleted.Add(500)
	c.sampleRates(t0.Add(500 * time.Millisecond)) // too soon: no sample
	if got := c.stats.ExpiredPerSec.Load(); got != 0 {
		t.Fatalf("rate after half a second = %d, want none yet", got)
	}
	c.sampleRates(t0.Add(2 * time.Second))
	if e, s := c.stats.ExpiredPerSec.Load(), c.stats.SubkeysPerSec.Load(); e != 1500 || s != 250 {
		t.Fatalf("rates = %d expired/s, %d sub-keys/s; want 1500, 250", e, s)
	}
	c.sampleRates(t0.Add(3 * time.Second)) // nothing since
	if e := c.stats.ExpiredPerSec.Load(); e != 0 {
		t.Fatalf("idle rate = %d", e)
	}
}
