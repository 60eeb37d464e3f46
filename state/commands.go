package state

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rekv/rekv/actors/command"
)

// Commands holds each command's counters (INFO commandstats and
// latencystats, LATENCY HISTOGRAM, /metrics) and the error replies by
// code (INFO errorstats).
type Commands struct {
	cmds  sync.Map // full command name -> *CommandStat
	errs  sync.Map // error code -> *atomic.Int64
	nerrs atomic.Int64
	// byID caches cmds' entries by command.Spec.ID (Size): the map's
	// look-up by name was 1.4% of GET -P 16's CPU. An entry holds while
	// gen is what it was when the entry was made (Reset moves it on).
	byID []atomic.Pointer[cachedStat]
	gen  atomic.Uint64
}

// cachedStat is a byID entry: spec's counters cmds held at generation
// gen (a spec of another registry may have the same ID).
type cachedStat struct {
	gen  uint64
	spec *command.Spec
	stat *CommandStat
}

// Size makes room to cache the counters of commands numbered 1 to n
// (command.Registry.Len). Call it before any other method.
func (s *Commands) Size(n int) { s.byID = make([]atomic.Pointer[cachedStat], n+1) }

// Of returns spec's counters (Get of its full name), from the cache by
// spec.ID when it holds them.
func (s *Commands) Of(spec *command.Spec) *CommandStat {
	if spec.ID <= 0 || spec.ID >= len(s.byID) {
		return s.Get(spec.FullName())
	}
	g := s.gen.Load()
	if e := s.byID[spec.ID].Load(); e != nil && e.gen == g && e.spec == spec {
		return e.stat
	}
	c := s.Get(spec.FullName())
	s.byID[spec.ID].Store(&cachedStat{gen: g, spec: spec, stat: c})
	return c
}

// CommandStat is one command's counters.
type CommandStat struct {
	Calls, Usec, Rejected, Failed atomic.Int64
	// Buckets counts runs per latency bucket (LatencyBounds); the last
	// counts the slower ones.
	Buckets [latencyBuckets + 1]atomic.Int64
}

const latencyBuckets = 15

// LatencyBounds returns the upper bounds, in microseconds, of the command
// latency histogram.
func LatencyBounds() [latencyBuckets]int64 {
	return [latencyBuckets]int64{10, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 25000, 50000, 100000, 250000, 500000, 1000000}
}

// Get returns a command's counters by full name, made on first use.
func (s *Commands) Get(name string) *CommandStat {
	if v, ok := s.cmds.Load(name); ok {
		return v.(*CommandStat)
	}
	v, _ := s.cmds.LoadOrStore(name, &CommandStat{})
	return v.(*CommandStat)
}

// Done counts a run of the command that took d.
func (s *Commands) Done(spec *command.Spec, d time.Duration, failed bool) {
	c := s.Of(spec)
	c.Calls.Add(1)
	us := d.Microseconds()
	c.Usec.Add(us)
	bounds := LatencyBounds()
	i := 0
	for i < len(bounds) && us > bounds[i] {
		i++
	}
	c.Buckets[i].Add(1)
	if failed {
		c.Failed.Add(1)
	}
}

// Names returns the names of the commands counted, sorted.
func (s *Commands) Names() []string {
	var names []string
	s.cmds.Range(func(k, _ any) bool {
		names = append(names, k.(string))
		return true
	})
	sort.Strings(names)
	return names
}

// maxErrorCodes bounds the distinct error codes counted, as Redis does.
const maxErrorCodes = 128

// CountError counts an error reply ("-CODE message\r\n") by its code.
func (s *Commands) CountError(reply []byte) {
	code := reply[1:]
	if i := strings.IndexAny(string(code), " \r"); i >= 0 {
		code = code[:i]
	}
	v, ok := s.errs.Load(string(code))
	if !ok {
		if s.nerrs.Load() >= maxErrorCodes {
			return
		}
		s.nerrs.Add(1)
		v, _ = s.errs.LoadOrStore(string(code), &atomic.Int64{})
	}
	v.(*atomic.Int64).Add(1)
}

// Errors returns the error replies counted by code.
func (s *Commands) Errors() map[string]int64 {
	out := map[string]int64{}
	s.errs.Range(func(k, v any) bool {
		out[k.(string)] = v.(*atomic.Int64).Load()
		return true
	})
	return out
}

// Reset forgets every counter (CONFIG RESETSTAT).
func (s *Commands) Reset() {
	s.gen.Add(1) // every cached entry is stale
	s.cmds.Range(func(k, _ any) bool {
		s.cmds.Delete(k)
		return true
	})
	s.errs.Range(func(k, _ any) bool {
		s.errs.Delete(k)
		return true
	})
	s.nerrs.Store(0)
}

// LatencyHistogram returns the run-time histograms of the named commands
// (none named: all) that ran, by name (LATENCY HISTOGRAM); a container's
// name (CLIENT) stands for its subcommands too, as in Redis, and names
// match in any case.
func (s *Commands) LatencyHistogram(names []string) []command.LatencyHistogram {
	want := map[string]bool{}
	for _, n := range names {
		want[strings.ToLower(n)] = true
	}
	var out []command.LatencyHistogram
	bounds := LatencyBounds()
	s.cmds.Range(func(k, v any) bool {
		name, c := k.(string), v.(*CommandStat)
		parent, _, _ := strings.Cut(name, "|")
		if len(names) > 0 && !want[name] && !want[parent] {
			return true
		}
		h := command.LatencyHistogram{Name: name, Calls: c.Calls.Load()}
		var cum int64
		for i := range c.Buckets {
			n := c.Buckets[i].Load()
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

// Percentiles renders latencystats' "p50=..,p99=.." for the command's
// runs so far ("" when it has none), in microseconds, each estimated
// inside the histogram bucket it falls in.
func (c *CommandStat) Percentiles(pcts []float64) string {
	var counts [latencyBuckets + 1]int64
	var total int64
	for i := range counts {
		counts[i] = c.Buckets[i].Load()
		total += counts[i]
	}
	if total == 0 {
		return ""
	}
	bounds := LatencyBounds()
	var b strings.Builder
	for j, p := range pcts {
		target := max(1, int64(math.Ceil(p/100*float64(total))))
		var cum int64
		v := float64(bounds[latencyBuckets-1])
		for i, n := range counts {
			if n == 0 || cum+n < target {
				cum += n
				continue
			}
			lo := 0.0
			if i > 0 {
				lo = float64(bounds[i-1])
			}
			hi := 2 * lo // past the last bound
			if i < latencyBuckets {
				hi = float64(bounds[i])
			}
			v = lo + (hi-lo)*float64(target-cum)/float64(n)
			break
		}
		if j > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "p%s=%.3f", strconv.FormatFloat(p, 'f', -1, 64), v)
	}
	return b.String()
}
