package info

import (
	"sync"
	"time"
)

// Meter samples the command and byte counts (every 100 ms, by its
// caller) and keeps the last 16 rates, as Redis's instantaneous_*
// figures.
type Meter struct {
	mu      sync.Mutex
	last    [3]int64 // commands, bytes in, bytes out
	lastT   time.Time
	samples [16][3]float64
	i       int
}

// Sample records the counts now: commands, bytes in, bytes out.
func (m *Meter) Sample(now [3]int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t := time.Now()
	if !m.lastT.IsZero() {
		if dt := t.Sub(m.lastT).Seconds(); dt > 0 {
			for k := range now {
				m.samples[m.i%len(m.samples)][k] = float64(now[k]-m.last[k]) / dt
			}
			m.i++
		}
	}
	m.last, m.lastT = now, t
}

// Rates returns the average commands/s and bytes/s in and out.
func (m *Meter) Rates() (ops, in, out float64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := min(m.i, len(m.samples))
	if n == 0 {
		return 0, 0, 0
	}
	var sum [3]float64
	for _, s := range m.samples[:n] {
		for k := range sum {
			sum[k] += s[k]
		}
	}
	return sum[0] / float64(n), sum[1] / float64(n), sum[2] / float64(n)
}
