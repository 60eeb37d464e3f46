package store

import (
	"math/rand/v2"
	"sync/atomic"
)

// LFU access counters (OBJECT FREQ), as Redis keeps them under an LFU
// maxmemory-policy: a logarithmic 8-bit counter and the minute (16 bits)
// it was last decremented, in the 32 bits where the access clock
// otherwise keeps a key's last access time, so, as in Redis, a key holds
// one or the other and switching policies at run time leaves values of
// the other kind to adjust. A key the clock does not know counts as new
// (LFUInitVal); a key created by a write starts there. OBJECT FREQ
// answers with the counter, and eviction under an LFU policy ranks keys
// by it (gc.Collector.Evict).

// LFUInitVal is a new key's counter (Redis's LFU_INIT_VAL).
const LFUInitVal = 5

// LFU holds the LFU settings every shard's clock reads: whether the
// policy is an LFU one, lfu-log-factor and lfu-decay-time. Safe for
// concurrent use.
type LFU struct {
	on        atomic.Bool
	logFactor atomic.Int64
	decay     atomic.Int64 // minutes per decrement; 0: never
}

// NewLFU returns the settings of Redis's defaults (policy not LFU,
// lfu-log-factor 10, lfu-decay-time 1).
func NewLFU() *LFU {
	l := &LFU{}
	l.logFactor.Store(10)
	l.decay.Store(1)
	return l
}

// Set applies one parameter: maxmemory-policy, lfu-log-factor or
// lfu-decay-time (values already checked).
func (l *LFU) Set(name string, n int64, policy string) {
	switch name {
	case "maxmemory-policy":
		l.on.Store(policy == "allkeys-lfu" || policy == "volatile-lfu")
	case "lfu-log-factor":
		l.logFactor.Store(n)
	case "lfu-decay-time":
		l.decay.Store(n)
	}
}

// On reports whether the policy is an LFU one.
func (l *LFU) On() bool { return l != nil && l.on.Load() }

// minutes is Redis's LFUGetTimeInMinutes.
func minutes(now int64) uint32 { return uint32(now/60000) & 65535 }

// initial is the value of a key created at now.
func (l *LFU) initial(now int64) uint32 { return minutes(now)<<8 | LFUInitVal }

// counter returns v's counter decayed to now (Redis's LFUDecrAndReturn).
func (l *LFU) counter(v uint32, now int64) uint32 {
	ldt, c := v>>8&65535, v&255
	d := uint32(l.decay.Load())
	if d == 0 {
		return c
	}
	m := minutes(now)
	var elapsed uint32
	if m >= ldt {
		elapsed = m - ldt
	} else {
		elapsed = 65535 - ldt + m
	}
	if periods := elapsed / d; periods > 0 {
		if periods > c {
			return 0
		}
		return c - periods
	}
	return c
}

// access returns v after an access at now: decayed, then incremented with
// probability 1/((counter-LFUInitVal)*lfu-log-factor+1) (Redis's
// updateLFU and LFULogIncr).
func (l *LFU) access(v uint32, now int64) uint32 {
	c := l.counter(v, now)
	if c < 255 {
		base := max(int64(c)-LFUInitVal, 0)
		if rand.Float64() < 1/float64(base*l.logFactor.Load()+1) {
			c++
		}
	}
	return minutes(now)<<8 | c
}
