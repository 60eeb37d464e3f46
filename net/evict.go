package net

import (
	"strconv"
)

// Eviction of keys, Redis's maxmemory-policy. Under a policy other than
// noeviction, while used memory (INFO used_memory, sampled every 100 ms)
// is over maxmemory, the evictor has the store delete keys (Options.Evict)
// whose estimated sizes add up to the excess, at most evictBatch keys per
// sample; writes go on meanwhile. Only when no key is left to evict do
// the commands Redis flags denyoom get -OOM (underMaxMemory), as in
// Redis. rekv's keys live in the store, not in memory: deleting them
// barely lowers used memory, so while it stays over maxmemory each
// sample evicts the excess's worth again. CONFIG SET maxmemory or
// maxmemory-policy starts a round at once.

// Evictor deletes keys as policy (a maxmemory-policy other than
// noeviction) chooses them, drawing samples keys per choice, until their
// estimated sizes add up to need bytes or limit keys are gone; it returns
// how many it deleted and their estimated size (gc.Collector.Evict).
type Evictor func(policy string, samples int, need int64, limit int) (keys int, freed int64, err error)

// evictBatch bounds the keys one round evicts.
const evictBatch = 1000

// kickEviction starts an eviction round unless one is due already.
func (s *Server) kickEviction() {
	select {
	case s.evictKick <- struct{}{}:
	default:
	}
}

// evictionChanged starts a round at once after CONFIG SET maxmemory or
// maxmemory-policy, writes allowed meanwhile: whether any key is left to
// evict is the round's to say.
func (s *Server) evictionChanged() {
	s.evictStuck.Store(false)
	s.kickEviction()
}

// evicting reports whether maxmemory-policy evicts keys.
func (s *Server) evicting() bool { return s.opts.Evict != nil && s.rt.evictPolicy.Load() }

// evictKeys runs the rounds until stop is closed.
func (s *Server) evictKeys(stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		case <-s.evictKick:
		}
		limit, used := s.rt.maxMemory.Load(), s.rt.usedMemory.Load()
		if limit <= 0 || used <= limit || !s.evicting() { // overMaxmemory, on the figures used below
			s.evictStuck.Store(false)
			continue
		}
		samples, _ := strconv.Atoi(s.configValue("maxmemory-samples"))
		n, freed, err := s.opts.Evict(s.configValue("maxmemory-policy"), samples, used-limit, evictBatch)
		s.stats.evictedKeys.Add(int64(n))
		if err != nil {
			s.log.Warn("eviction failed", "err", err)
		}
		// Out of keys: denyoom commands get -OOM until a round finds some.
		s.evictStuck.Store(err == nil && freed < used-limit && n < evictBatch)
	}
}
