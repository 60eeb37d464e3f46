package info

import (
	"math"
	"testing"
	"time"
)

// TestMeter: rates are the counts' growth per second, averaged over the
// samples kept; no sample yet is 0.
func TestMeter(t *testing.T) {
	var m Meter
	if ops, in, out := m.Rates(); ops != 0 || in != 0 || out != 0 {
		t.Fatalf("no samples: %v %v %v", ops, in, out)
	}
	m.Sample([3]int64{0, 0, 0})
	time.Sleep(20 * time.Millisecond)
	m.Sample([3]int64{100, 1000, 10})
	ops, in, out := m.Rates()
	if ops <= 0 || math.Abs(in/ops-10) > 1e-6 || math.Abs(out/ops-0.1) > 1e-6 {
		t.Errorf("rates %v %v %v: want in = 10 x ops, out = ops / 10", ops, in, out)
	}
}

// TestSectionsKeepRedisOrder: sections start and end with Redis's
// fields, and format what they are given.
func TestSectionsKeepRedisOrder(t *testing.T) {
	c := Clients(ClientFigures{Connected: 3, MaxClients: 10, Blocked: 1, Tracking: 2})
	if c[0] != [2]string{"connected_clients", "3"} || c[len(c)-1][0] != "clients_in_timeout_table" || c[6] != [2]string{"tracking_clients", "2"} {
		t.Errorf("clients = %v", c)
	}
	e := ErrorStats(map[string]int64{"WRONGTYPE": 2, "ERR": 5})
	if len(e) != 2 || e[0] != [2]string{"errorstat_ERR", "count=5"} || e[1][0] != "errorstat_WRONGTYPE" {
		t.Errorf("errorstats = %v", e)
	}
	p := Persistence(PersistenceFigures{StorageError: "disk full", StorageFailed: 1})
	if last := p[len(p)-3:]; last[0] != [2]string{"storage_status", "failed"} || last[2] != [2]string{"storage_last_error", "disk full"} {
		t.Errorf("persistence ends %v", last)
	}
	for n, want := range map[uint64]string{512: "512B", 1536: "1.50K", 3 << 20: "3.00M", 5 << 30: "5.00G"} {
		if got := human(n); got != want {
			t.Errorf("human(%d) = %s, want %s", n, got, want)
		}
	}
}
