package integration

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/rekv/rekv/conf"
)

// TestMetricsEndpoint scrapes /metrics after some commands and parses it
// with Prometheus's own text parser: command counts and latency
// histograms by command, error replies by code, connections, the GC's
// counters, Badger's sizes and the Go runtime are there, with the values
// the commands imply.
func TestMetricsEndpoint(t *testing.T) {
	n := startNode(t, "badger", func(c *conf.Config) { c.Metrics.Addr = "127.0.0.1:0" })
	c := dialRaw(t, n.Addr())
	for i := 0; i < 3; i++ {
		c.do("SET", "k", "v")
	}
	c.do("LPUSH", "k", "x") // WRONGTYPE
	resp, err := http.Get("http://" + n.MetricsAddr() + "/metrics")
	must(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	must(t, err)
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(strings.NewReader(string(body)))
	if err != nil {
		t.Fatalf("not Prometheus text: %v\n%.500s", err, body)
	}
	value := func(family string, labels map[string]string) (float64, bool) {
		f := families[family]
		if f == nil {
			return 0, false
		}
	next:
		for _, m := range f.GetMetric() {
			for _, lp := range m.GetLabel() {
				if want, ok := labels[lp.GetName()]; ok && want != lp.GetValue() {
					continue next
				}
			}
			switch {
			case m.Counter != nil:
				return m.GetCounter().GetValue(), true
			case m.Gauge != nil:
				return m.GetGauge().GetValue(), true
			case m.Histogram != nil:
				return float64(m.GetHistogram().GetSampleCount()), true
			}
		}
		return 0, false
	}
	for _, tc := range []struct {
		family string
		labels map[string]string
		want   float64 // -1: present, any value
	}{
		{"rekv_commands_total", map[string]string{"cmd": "set"}, 3},
		{"rekv_command_duration_seconds", map[string]string{"cmd": "set"}, 3},
		{"rekv_commands_failed_total", map[string]string{"cmd": "lpush"}, 1},
		{"rekv_error_replies_total", map[string]string{"code": "WRONGTYPE"}, 1},
		{"rekv_connected_clients", nil, 1},
		{"rekv_evicted_keys_total", nil, 0},
		{"rekv_gc", map[string]string{"name": "gc_passes"}, -1},
		{"rekv_storage_bytes", map[string]string{"part": "vlog"}, -1},
		{"go_goroutines", nil, -1},
	} {
		got, ok := value(tc.family, tc.labels)
		if !ok || tc.want >= 0 && got != tc.want {
			t.Errorf("%s%v = %v (present %v), want %v", tc.family, tc.labels, got, ok, tc.want)
		}
	}
	if h := families["rekv_command_duration_seconds"]; h == nil || h.GetType().String() != "HISTOGRAM" {
		t.Fatalf("rekv_command_duration_seconds is not a histogram")
	}
}
