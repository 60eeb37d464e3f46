package net

import (
	"sort"
	"sync"
	"time"

	"github.com/rekv/rekv/actors/command"
)

// LATENCY: with latency-monitor-threshold (ms) above 0, every command that
// runs at least that long is a sample of the "command" event ("fast-command"
// for commands flagged fast), one per second kept (the largest), the last
// 160 per event, as Redis's latency monitor. LATENCY HISTOGRAM reads the
// per-command run-time histogram INFO keeps, with rekv's buckets
// (LatencyBounds) rather than Redis's powers of two.

const latencySamples = 160

type latencyEvent struct {
	samples []command.LatencySample // oldest first
	max     int64
}

type latencyMonitor struct {
	mu     sync.Mutex
	events map[string]*latencyEvent
}

// observe records a command's run time if the monitor is on.
func (s *Server) observeLatency(spec *command.Spec, d time.Duration) {
	th := s.rt.latencyThreshold.Load()
	ms := d.Milliseconds()
	if th <= 0 || ms < th {
		return
	}
	name := "command"
	if spec.Flags&command.Fast != 0 {
		name = "fast-command"
	}
	m := &s.latency
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.events == nil {
		m.events = map[string]*latencyEvent{}
	}
	e := m.events[name]
	if e == nil {
		e = &latencyEvent{}
		m.events[name] = e
	}
	now := time.Now().Unix()
	if n := len(e.samples); n > 0 && e.samples[n-1].Time == now {
		e.samples[n-1].Ms = max(e.samples[n-1].Ms, ms)
	} else {
		e.samples = append(e.samples, command.LatencySample{Time: now, Ms: ms})
		if len(e.samples) > latencySamples {
			e.samples = e.samples[1:]
		}
	}
	e.max = max(e.max, ms)
}

// LatencyLatest implements command.Server.
func (s *Server) LatencyLatest() []command.LatencyEvent {
	m := &s.latency
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []command.LatencyEvent
	for name, e := range m.events {
		last := e.samples[len(e.samples)-1]
		out = append(out, command.LatencyEvent{Name: name, Time: last.Time, Latest: last.Ms, Max: e.max})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// LatencyHistory implements command.Server.
func (s *Server) LatencyHistory(event string) []command.LatencySample {
	m := &s.latency
	m.mu.Lock()
	defer m.mu.Unlock()
	if e := m.events[event]; e != nil {
		return append([]command.LatencySample(nil), e.samples...)
	}
	return nil
}

// LatencyReset implements command.Server: it drops the named events'
// samples (every event without names) and returns how many it dropped.
func (s *Server) LatencyReset(events []string) int {
	m := &s.latency
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	if len(events) == 0 {
		n = len(m.events)
		m.events = nil
		return n
	}
	for _, name := range events {
		if _, ok := m.events[name]; ok {
			delete(m.events, name)
			n++
		}
	}
	return n
}

// LatencyHistogram implements command.Server: each command's calls and
// cumulative run-time histogram (bucket upper bound in µs -> runs), for
// the named commands that have run (every command without names).
func (s *Server) LatencyHistogram(names []string) []command.LatencyHistogram {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	var out []command.LatencyHistogram
	bounds := LatencyBounds()
	s.stats.cmds.Range(func(k, v any) bool {
		name, c := k.(string), v.(*cmdStat)
		if len(names) > 0 && !want[name] {
			return true
		}
		h := command.LatencyHistogram{Name: name, Calls: c.calls.Load()}
		var cum int64
		for i := range c.buckets {
			n := c.buckets[i].Load()
			if n == 0 {
				continue
			}
			cum += n
			bound := int64(-1) // slower than the last bound
			if i < len(bounds) {
				bound = bounds[i]
			}
			h.Buckets = append(h.Buckets, [2]int64{bound, cum})
		}
		if h.Calls > 0 {
			out = append(out, h)
		}
		return true
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
