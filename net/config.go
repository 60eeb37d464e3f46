package net

import (
	"bytes"
	"crypto/tls"
	"log/slog"
	"math"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/glob"
	"github.com/rekv/rekv/resp"
	"github.com/rekv/rekv/settings"
)

// CONFIG GET/SET over every Redis 7.0 parameter.
//
// The settings table (package settings) gives each parameter as Redis 7.0
// declares it — its type, default and accepted values (bool; int or
// memory with a range; enum; string; the special formats; an alias naming
// another) and whether CONFIG SET may change it — so CONFIG SET validates
// and answers exactly as Redis does. A value is remembered and returned
// by CONFIG GET; the rows marked live also take effect at once, by the
// functions liveConfig gives (a test checks the two agree). The others
// (encodings, persistence, replication...) have no effect here. CONFIG
// SET of several pairs checks them all before changing any.

type paramKind int

const (
	kindString paramKind = iota
	kindBool
	kindInt
	kindMem
	kindMemPct
	kindEnum
	kindImmutable
	kindProtected
	kindSpecial
)

type param struct {
	name     string
	kind     paramKind
	fixed    bool // from rekv's own configuration: not settable at all
	min, max int64
	values   []string // enum
	hidden   bool     // matched by its exact name only (settings.Setting.Hidden)
}

// config holds the parameter table and every parameter's value.
type config struct {
	mu     sync.Mutex
	params map[string]*param
	alias  map[string]string // alias -> canonical name
	order  []string          // every name, canonical and alias
	values map[string]string // by canonical name
	// initial holds the values once the server started, or at the last
	// CONFIG REWRITE (see rewrite.go).
	initial map[string]string
}

// loadConfig builds the parameter table from the settings table's rows
// with a CONFIG name, then sets the values overrides give.
func loadConfig(overrides [][2]string) *config {
	c := &config{params: map[string]*param{}, alias: map[string]string{}, values: map[string]string{}}
	kinds := map[settings.Type]paramKind{settings.String: kindString, settings.Bool: kindBool, settings.Int: kindInt,
		settings.Mem: kindMem, settings.MemPct: kindMemPct, settings.Enum: kindEnum, settings.Special: kindSpecial}
	for _, row := range settings.Config(settings.Table()) {
		name := row.Redis
		c.order = append(c.order, name)
		if row.Alias != "" {
			c.alias[name] = row.Alias
			continue
		}
		p := &param{name: name, kind: kinds[row.ConfigType()], min: row.Min, max: row.Max, values: row.Values, hidden: row.Hidden}
		switch row.Apply {
		case settings.AtStart:
			p.kind = kindImmutable
		case settings.Protected:
			p.kind = kindProtected
		}
		// What rekv's own configuration gives (a row with a file key)
		// cannot be given at start under server.redis either.
		p.fixed = row.Key != "" && (row.Apply == settings.AtStart || row.Apply == settings.Protected)
		c.params[name] = p
		c.values[name] = row.Default
	}
	for _, kv := range overrides {
		c.values[c.canonical(kv[0])] = kv[1]
	}
	return c
}

func (c *config) canonical(name string) string {
	if a, ok := c.alias[name]; ok {
		return a
	}
	return name
}

// get returns the name/value pairs matching any of patterns, each once
// (as Redis 7.0's CONFIG GET).
func (c *config) get(patterns [][]byte, match func(pat []byte, name string) bool) [][2]string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out [][2]string
	for _, name := range c.order {
		hidden := c.params[c.canonical(name)].hidden
		for _, pat := range patterns {
			if !bytes.ContainsAny(pat, "[*?") {
				// A name, not a pattern: any parameter, shown by the
				// name as given (Redis looks it up without case).
				if strings.EqualFold(string(pat), name) {
					out = append(out, [2]string{string(pat), c.values[c.canonical(name)]})
					break
				}
				continue
			}
			if !hidden && match(pat, name) { // a hidden one by its name only
				out = append(out, [2]string{name, c.values[c.canonical(name)]})
				break
			}
		}
	}
	return out
}

func setErr(name, why string) error {
	return rerr.Errorf("ERR CONFIG SET failed (possibly related to argument '%s') - %s", name, why)
}

// normalize checks value for p and returns it as CONFIG GET shows it.
func (p *param) normalize(value string) (string, error) {
	switch p.kind {
	case kindImmutable:
		return "", setErr(p.name, "can't set immutable config")
	case kindProtected:
		return "", setErr(p.name, "can't set protected config")
	case kindBool:
		switch strings.ToLower(value) {
		case "yes":
			return "yes", nil
		case "no":
			return "no", nil
		}
		return "", setErr(p.name, "argument must be 'yes' or 'no'")
	case kindInt:
		n, ok := resp.ParseInt([]byte(value))
		if !ok {
			return "", setErr(p.name, "argument couldn't be parsed into an integer")
		}
		if s, err := p.inRange(n); err != nil || p.name != "hz" {
			return s, err
		}
		return strconv.FormatInt(min(max(n, 1), 500), 10), nil // Redis clamps hz
	case kindMem, kindMemPct:
		if p.kind == kindMemPct && strings.HasSuffix(value, "%") {
			n, ok := resp.ParseInt([]byte(value[:len(value)-1]))
			if ok && n >= 0 {
				return p.percent(n)
			}
		}
		u, ok := resp.ParseMemory(value)
		if !ok {
			if p.kind == kindMemPct {
				return "", setErr(p.name, "argument must be a memory or percent value")
			}
			return "", setErr(p.name, "argument must be a memory value")
		}
		switch {
		case p.name == "maxmemory" || p.name == "cluster-link-sendbuf-limit":
			return strconv.FormatUint(u, 10), nil // unsigned in Redis
		case p.kind == kindMemPct && u > math.MaxInt64:
			return p.percent(-int64(u)) // read back as Redis does: negative is a percent
		case u > math.MaxInt64:
			return p.inRange(-1)
		case p.name == "repl-backlog-size":
			u = max(u, 16384) // Redis's smallest backlog
		}
		return p.inRange(int64(u))
	case kindEnum:
		for _, v := range p.values {
			if strings.EqualFold(v, value) {
				return v, nil
			}
		}
		return "", setErr(p.name, "argument(s) must be one of the following: "+strings.Join(p.values, ", "))
	case kindSpecial:
		return p.special(value)
	}
	return value, nil
}

// percent checks a percent value (maxmemory-clients 10%): at most 100,
// as Redis bounds it; 0% reads back as 0 (Redis stores a percent
// negated, and -0 is 0 bytes).
func (p *param) percent(n int64) (string, error) {
	if n > 100 {
		return "", setErr(p.name, "percentage argument must be less or equal to 100")
	}
	if n == 0 {
		return "0", nil
	}
	return strconv.FormatInt(n, 10) + "%", nil
}

func (p *param) inRange(n int64) (string, error) {
	if n < p.min || n > p.max {
		return "", setErr(p.name, "argument must be between "+strconv.FormatInt(p.min, 10)+" and "+
			strconv.FormatInt(p.max, 10)+" inclusive")
	}
	return strconv.FormatInt(n, 10), nil
}

// special validates the parameters with their own formats.
func (p *param) special(value string) (string, error) {
	f := strings.Fields(value)
	switch p.name {
	case "save":
		if len(f)%2 != 0 {
			return "", setErr(p.name, "Invalid save parameters")
		}
		for _, x := range f {
			if n, ok := resp.ParseInt([]byte(x)); !ok || n < 0 {
				return "", setErr(p.name, "Invalid save parameters")
			}
		}
		return strings.Join(f, " "), nil
	case "client-output-buffer-limit":
		if len(f)%4 != 0 {
			return "", setErr(p.name, "Wrong number of arguments in buffer limit configuration.")
		}
		for i := 0; i < len(f); i += 4 {
			switch strings.ToLower(f[i]) {
			case "normal", "slave", "replica", "pubsub":
			default:
				return "", setErr(p.name, "Invalid client class specified in buffer limit configuration.")
			}
			for _, x := range f[i+1 : i+4] {
				if _, ok := resp.ParseMemory(x); !ok {
					return "", setErr(p.name, "Error in hard, soft or soft_seconds setting in buffer limit configuration.")
				}
			}
		}
		return value, nil
	case "notify-keyspace-events":
		n, ok := command.ParseNotify(value)
		if !ok {
			return "", setErr(p.name, "Invalid event class character. Use 'Ag$lshzxeKEtmdn'.")
		}
		return n.String(), nil
	case "oom-score-adj-values":
		if len(f) != 3 {
			return "", setErr(p.name, "wrong number of arguments")
		}
		for _, x := range f {
			if n, ok := resp.ParseInt([]byte(x)); !ok || n < -2000 || n > 2000 {
				return "", setErr(p.name, "Invalid oom-score-adj-values, elements must be between -2000 and 2000.")
			}
		}
		return strings.Join(f, " "), nil
	case "latency-tracking-info-percentiles":
		for _, x := range f {
			v, err := strconv.ParseFloat(x, 64)
			if err != nil {
				return "", setErr(p.name, "Invalid latency-tracking-info-percentiles parameters")
			}
			if v < 0 || v > 100 {
				return "", setErr(p.name, "latency-tracking-info-percentiles parameters should sit between [0.0,100.0]")
			}
		}
		return value, nil
	case "cluster-announce-hostname":
		for _, ch := range value {
			if !(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '-' || ch == '.') {
				return "", setErr(p.name, "Hostnames may only contain alphanumeric characters, hyphens or dots")
			}
		}
		return value, nil
	}
	return value, nil
}

// set validates every pair, then applies them all (apply may refuse one,
// which undoes the others) and remembers the values.
func (c *config) set(pairs [][2]string, apply func(name, value string) error, start bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	// As Redis's configSetCommand: first every name (unknown, duplicate,
	// immutable), then every value, so an unknown parameter is named
	// before a bad value given earlier.
	seen := map[string]bool{}
	named := func(name, canon string, err error) error {
		if canon != name {
			return rerr.Errorf("%s", strings.Replace(err.Error(), "'"+canon+"'", "'"+name+"'", 1))
		}
		return err
	}
	for _, kv := range pairs {
		name := strings.ToLower(kv[0])
		canon := c.canonical(name)
		p := c.params[canon]
		if p == nil {
			return rerr.Errorf("ERR Unknown option or number of arguments for CONFIG SET - '%s'", kv[0])
		}
		if seen[name] { // an alias and its parameter may both be given: the last wins
			return setErr(name, "duplicate parameter")
		}
		seen[name] = true
		if start && (canon == "port" || canon == "bind") {
			return setErr(name, "comes from rekv's own configuration (server.port, server.bind)")
		}
		if (p.kind == kindImmutable || p.kind == kindProtected) && !(start && !p.fixed) {
			_, err := p.normalize(kv[1])
			return named(name, canon, err)
		}
	}
	next := make([][2]string, 0, len(pairs))
	for _, kv := range pairs {
		name := strings.ToLower(kv[0])
		canon := c.canonical(name)
		p := c.params[canon]
		v, err := p.normalize(kv[1])
		if start && p.kind == kindImmutable && !p.fixed {
			v, err = kv[1], nil // set at start (server.redis), as in redis.conf
		}
		if err != nil {
			return named(name, canon, err)
		}
		next = append(next, [2]string{canon, v})
	}
	for i, kv := range next {
		if err := apply(kv[0], kv[1]); err != nil {
			for _, done := range next[:i] {
				_ = apply(done[0], c.values[done[0]])
			}
			return err
		}
	}
	for _, kv := range next {
		c.values[kv[0]] = kv[1]
	}
	return nil
}

// runtimeConf holds the parameters that take effect at run time, read
// without locks on the hot paths.
type runtimeConf struct {
	requirePass atomic.Pointer[string]
	idleTimeout atomic.Int64 // ns; 0: never
	maxClients  atomic.Int64 // 0: no limit
	maxBulk     atomic.Int64
	outNormal   atomic.Int64 // hard limit, bytes; 0: none
	outPubSub   atomic.Int64
	// slowThreshold is slowlog-log-slower-than in microseconds.
	slowThreshold atomic.Int64
	// latencyThreshold is latency-monitor-threshold in milliseconds.
	latencyThreshold atomic.Int64
	// maxMemory is maxmemory in bytes (0: no limit); usedMemory is the
	// Go heap in use (INFO used_memory), sampled every 100 ms.
	maxMemory, usedMemory atomic.Int64
	// evictPolicy: maxmemory-policy evicts keys (not noeviction).
	evictPolicy atomic.Bool
	// clientsMem is maxmemory-clients: bytes, or minus a percentage of
	// maxmemory (memory.go); queryLimit is client-query-buffer-limit.
	clientsMem, queryLimit atomic.Int64
	// replicaReadOnly and serveStale are replica-read-only and
	// replica-serve-stale-data.
	replicaReadOnly, serveStale atomic.Bool
	// minReplicas and minReplicasLag are min-replicas-to-write and
	// min-replicas-max-lag (seconds).
	minReplicas, minReplicasLag atomic.Int64
	// streamNodeEntries and streamNodeBytes are stream-node-max-entries
	// and stream-node-max-bytes.
	streamNodeEntries, streamNodeBytes atomic.Int64
	// The encoding limits (command.EncodingLimits).
	intsetEntries, hashEntries, hashValue, zsetEntries, zsetValue atomic.Int64
}

// EncodingLimits implements command.Config.
func (vw configRole) EncodingLimits() command.EncodingLimits {
	rt := &vw.s.rt
	return command.EncodingLimits{IntsetEntries: rt.intsetEntries.Load(),
		Hash: command.ListpackLimits{Entries: rt.hashEntries.Load(), Value: rt.hashValue.Load()},
		ZSet: command.ListpackLimits{Entries: rt.zsetEntries.Load(), Value: rt.zsetValue.Load()}}
}

// StreamNodeLimits implements command.Config.
func (vw configRole) StreamNodeLimits() (entries, bytes int64) {
	return vw.s.rt.streamNodeEntries.Load(), vw.s.rt.streamNodeBytes.Load()
}

// ConfigGet implements command.Server.
func (vw configRole) ConfigGet(patterns [][]byte) [][2]string {
	s := vw.s
	return s.conf.get(patterns, func(pat []byte, name string) bool { return glob.Match(pat, []byte(name), true) })
}

// SetConfig implements command.Server.
//
// The tls-* parameters given together are checked together (a new
// certificate with its new key), and the TLS configuration is reloaded
// once, after all of them are set.
func (vw configRole) SetConfig(pairs [][2]string) error {
	s := vw.s
	s.tlsMu.Lock()
	defer s.tlsMu.Unlock()
	o, tlsName := s.opts.TLS, ""
	for _, kv := range pairs {
		if name := strings.ToLower(kv[0]); isTLSOption(name) {
			setTLSOption(&o, name, kv[1])
			tlsName = name
		}
	}
	var cfg *tls.Config
	if tlsName != "" && s.tls != nil {
		var err error
		if cfg, err = buildTLSConfig(o); err != nil {
			s.log.Warn("CONFIG SET: TLS configuration not changed", "err", err)
			return setErr(tlsName, "Unable to update TLS configuration. Check server logs.")
		}
	}
	if err := s.conf.set(pairs, s.applyConfig, false); err != nil {
		return err
	}
	if cfg != nil {
		s.tls.cfg.Store(cfg)
	}
	return nil
}

// applyConfig makes a checked value take effect (parameters with no
// meaning in rekv are only remembered).
func (s *Server) applyConfig(name, value string) error {
	if isTLSOption(name) {
		setTLSOption(&s.opts.TLS, name, value) // checked and loaded by SetConfig
		return nil
	}
	if apply := s.live[name]; apply != nil {
		return apply(value)
	}
	return nil
}

// eviction applies an eviction parameter (to the LFU clocks).
func (s *Server) eviction(name string) func(value string) error {
	return func(value string) error {
		if set := s.opts.SetEviction; set != nil {
			set(name, value)
		}
		if name == "maxmemory-policy" {
			s.rt.evictPolicy.Store(value != "noeviction")
			s.evictionChanged()
		}
		return nil
	}
}

// storeInt returns a live parameter's hook that stores its integer value
// in a (the settings table has checked it).
func storeInt(a *atomic.Int64) func(value string) error {
	return func(value string) error {
		n, _ := strconv.ParseInt(value, 10, 64)
		a.Store(n)
		return nil
	}
}

// liveConfig returns how each parameter the settings table marks live
// (settings.Live), tls-* aside, takes effect, by CONFIG name.
func (s *Server) liveConfig() map[string]func(value string) error {
	return map[string]func(value string) error{
		"notify-keyspace-events": func(value string) error {
			n, _ := command.ParseNotify(value)
			s.notify.Store(uint32(n))
			return nil
		},
		"busy-reply-threshold":      storeInt(&s.busyMs),
		"stream-node-max-entries":   storeInt(&s.rt.streamNodeEntries),
		"stream-node-max-bytes":     storeInt(&s.rt.streamNodeBytes),
		"set-max-intset-entries":    storeInt(&s.rt.intsetEntries),
		"hash-max-listpack-entries": storeInt(&s.rt.hashEntries),
		"hash-max-listpack-value":   storeInt(&s.rt.hashValue),
		"zset-max-listpack-entries": storeInt(&s.rt.zsetEntries),
		"zset-max-listpack-value":   storeInt(&s.rt.zsetValue),
		"slowlog-log-slower-than":   storeInt(&s.rt.slowThreshold),
		"latency-monitor-threshold": storeInt(&s.rt.latencyThreshold),
		"slowlog-max-len": func(value string) error {
			n, _ := strconv.ParseInt(value, 10, 64)
			s.slowLog.SetMax(int(min(n, 1<<20)))
			return nil
		},
		"requirepass": func(value string) error {
			s.rt.requirePass.Store(&value)
			rules := []string{"resetpass", ">" + value}
			if value == "" {
				rules = []string{"nopass"}
			}
			return s.acl.SetUser("default", rules) // Redis 7: requirepass is the default user's password
		},
		"acllog-max-len": func(value string) error {
			n, _ := strconv.ParseInt(value, 10, 64)
			s.acl.SetLogMax(int(min(n, 1<<20)))
			return nil
		},
		"timeout": func(value string) error {
			sec, _ := strconv.ParseInt(value, 10, 64)
			s.rt.idleTimeout.Store(int64(time.Duration(sec) * time.Second))
			return nil
		},
		"appendfsync": func(value string) error {
			if set := s.opts.SetDurability; set != nil {
				return set(value)
			}
			return nil
		},
		"port": func(value string) error {
			port, _ := strconv.Atoi(value)
			if err := s.rebind(s.listenBind, port); err != nil {
				s.log.Warn("CONFIG SET port: cannot listen", "port", port, "err", err)
				return setErr("port", "Unable to listen on this port")
			}
			s.listenPort = port
			return nil
		},
		"bind": func(value string) error {
			if err := s.rebind(value, s.listenPort); err != nil {
				s.log.Warn("CONFIG SET bind: cannot listen", "bind", value, "err", err)
				return setErr("bind", "Failed to bind to specified addresses.")
			}
			s.listenBind = value
			return nil
		},
		"maxmemory-policy": s.eviction("maxmemory-policy"),
		"lfu-log-factor":   s.eviction("lfu-log-factor"),
		"lfu-decay-time":   s.eviction("lfu-decay-time"),
		"loglevel": func(value string) error {
			if lv := s.opts.LogLevel; lv != nil {
				lv.Set(map[string]slog.Level{"debug": slog.LevelDebug, "verbose": slog.LevelInfo, "notice": slog.LevelInfo,
					"warning": slog.LevelWarn}[value])
			}
			return nil
		},
		"maxmemory": func(value string) error {
			n, _ := strconv.ParseUint(value, 10, 64)
			s.rt.maxMemory.Store(int64(min(n, math.MaxInt64)))
			s.evictionChanged()
			return nil
		},
		"maxmemory-clients": func(value string) error {
			s.setClientsLimit(value)
			return nil
		},
		"client-query-buffer-limit": storeInt(&s.rt.queryLimit),
		"tracking-table-max-keys": func(value string) error {
			n, _ := strconv.ParseInt(value, 10, 64)
			s.tracking.SetMaxKeys(n)
			s.limitTracking() // a lower limit evicts now, as Redis's cron does
			return nil
		},
		"replica-read-only": func(value string) error {
			s.rt.replicaReadOnly.Store(value == "yes")
			return nil
		},
		"replica-serve-stale-data": func(value string) error {
			s.rt.serveStale.Store(value == "yes")
			return nil
		},
		"repl-backlog-size": func(value string) error {
			if n, err := strconv.ParseInt(value, 10, 64); err == nil && s.opts.Replication != nil {
				s.opts.Replication.SetBacklogSize(n)
			}
			return nil
		},
		"min-replicas-to-write": func(value string) error {
			n, _ := strconv.ParseInt(value, 10, 64)
			s.rt.minReplicas.Store(n)
			return nil
		},
		"min-replicas-max-lag": func(value string) error {
			n, _ := strconv.ParseInt(value, 10, 64)
			s.rt.minReplicasLag.Store(n)
			return nil
		},
		"maxclients": func(value string) error {
			n, _ := strconv.ParseInt(value, 10, 64)
			s.rt.maxClients.Store(n)
			return nil
		},
		"proto-max-bulk-len": func(value string) error {
			n, _ := strconv.ParseInt(value, 10, 64)
			s.rt.maxBulk.Store(n)
			return nil
		},
		"client-output-buffer-limit": func(value string) error {
			f := strings.Fields(value)
			for i := 0; i+3 < len(f); i += 4 {
				hard, _ := resp.ParseMemory(f[i+1])
				switch strings.ToLower(f[i]) {
				case "normal":
					s.rt.outNormal.Store(int64(min(hard, math.MaxInt64)))
				case "pubsub":
					s.rt.outPubSub.Store(int64(min(hard, math.MaxInt64)))
				}
			}
			return nil
		},
	}
}

// initConfig loads the parameter table with rekv's own settings and puts
// the run-time ones into effect.
func (s *Server) initConfig() {
	o := s.opts
	own := append([][2]string{}, s.info.Config...)
	own = append(own,
		[2]string{"notify-keyspace-events", s.NotifyFlags().String()},
		[2]string{"busy-reply-threshold", strconv.FormatInt(s.busyMs.Load(), 10)},
		[2]string{"requirepass", o.RequirePass},
		[2]string{"timeout", strconv.FormatInt(int64(o.IdleTimeout/time.Second), 10)},
		[2]string{"maxclients", strconv.Itoa(o.MaxClients)},
		[2]string{"proto-max-bulk-len", strconv.FormatInt(o.Limits.MaxBulkLen, 10)},
	)
	s.conf = loadConfig(own)
	s.live = s.liveConfig()
	s.listenBind = s.conf.values["bind"]
	s.listenPort, _ = strconv.Atoi(s.conf.values["port"])
	pass := o.RequirePass
	s.rt.requirePass.Store(&pass)
	s.rt.idleTimeout.Store(int64(o.IdleTimeout))
	s.rt.maxClients.Store(int64(o.MaxClients))
	s.rt.maxBulk.Store(o.Limits.MaxBulkLen)
	s.rt.outNormal.Store(int64(o.OutputLimitNormal))
	s.rt.outPubSub.Store(int64(o.OutputLimitPubSub))
	for _, name := range []string{"slowlog-log-slower-than", "slowlog-max-len", "tracking-table-max-keys",
		"maxmemory-clients", "client-query-buffer-limit", "maxmemory-policy", "lfu-log-factor", "lfu-decay-time",
		"replica-read-only", "replica-serve-stale-data", "min-replicas-to-write", "min-replicas-max-lag",
		"stream-node-max-entries", "stream-node-max-bytes", "set-max-intset-entries", "hash-max-listpack-entries",
		"hash-max-listpack-value", "zset-max-listpack-entries", "zset-max-listpack-value"} {
		_ = s.applyConfig(name, s.conf.values[name])
	}
}

// limits returns the protocol limits now in effect.
func (s *Server) limits() resp.Limits {
	l := s.opts.Limits
	l.MaxBulkLen = s.rt.maxBulk.Load()
	return l
}

// requirePass returns the password now in effect ("" for none).
func (s *Server) requirePass() string { return *s.rt.requirePass.Load() }

// configValue returns a parameter's current value.
func (s *Server) configValue(name string) string {
	c := s.conf
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.values[c.canonical(name)]
}
