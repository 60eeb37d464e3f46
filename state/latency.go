package state

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
// per-command run-time histogram of Stats, with rekv's buckets
// (LatencyBounds) rather than Redis's powers of two.

const latencySamples = 160

type latencyEvent struct {
	samples []command.LatencySample // oldest first
	max     int64
}

// LatencyMonitor holds the latency events.
type LatencyMonitor struct {
	mu     sync.Mutex
	events map[string]*latencyEvent
}

// Observe records a command's run time d if it reaches threshold (ms;
// 0 or less: the monitor is off); fast says the command is flagged fast.
func (m *LatencyMonitor) Observe(threshold int64, fast bool, d time.Duration) {
	name := "command"
	if fast {
		name = "fast-command"
	}
	m.ObserveEvent(threshold, name, d)
}

// ObserveEvent records d as a sample of event name (Redis's names:
// "expire-cycle" for the collector's expiry of keys) if it reaches
// threshold (ms; 0 or less: the monitor is off).
func (m *LatencyMonitor) ObserveEvent(threshold int64, name string, d time.Duration) {
	ms := d.Milliseconds()
	if threshold <= 0 || ms < threshold {
		return
	}
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

// LatencyLatest returns each event's latest sample and maximum, by name.
func (m *LatencyMonitor) LatencyLatest() []command.LatencyEvent {
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

// LatencyHistory returns an event's samples, oldest first.
func (m *LatencyMonitor) LatencyHistory(event string) []command.LatencySample {
	m.mu.Lock()
	defer m.mu.Unlock()
	if e := m.events[event]; e != nil {
		return append([]command.LatencySample(nil), e.samples...)
	}
	return nil
}

// LatencyReset forgets the named events (none named: all) and returns
// how many it forgot.
func (m *LatencyMonitor) LatencyReset(events []string) int {
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
