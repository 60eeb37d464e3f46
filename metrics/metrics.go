package metrics

import (
	"context"
	"errors"
	"log/slog"
	stdnet "net"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	rnet "github.com/rekv/rekv/net"
	"github.com/rekv/rekv/state"
)

// Sources are where the figures come from.
type Sources struct {
	Net func() rnet.Metrics
	// GC returns the collector's counters as name, value pairs (INFO gc).
	GC func() [][2]string
	// Storage returns the store's sizes in bytes by part ("lsm", "vlog");
	// nil when the driver does not tell.
	Storage func() map[string]int64
}

// collector turns Sources into metrics at each scrape.
type collector struct {
	src                                    Sources
	calls, usec, failed, rejected, latency *prometheus.Desc
	errs, conns, connsTotal, rejectedConns *prometheus.Desc
	blocked, netIn, netOut, channels, pats *prometheus.Desc
	gc, storage, evicted                   *prometheus.Desc
	// By namespace.
	nsCommands, nsClients, nsKeys, nsBytes, nsQuota *prometheus.Desc
}

func newCollector(src Sources) *collector {
	d := func(name, help string, labels ...string) *prometheus.Desc {
		return prometheus.NewDesc("rekv_"+name, help, labels, nil)
	}
	return &collector{src: src,
		calls:         d("commands_total", "Commands run, by command.", "cmd"),
		usec:          d("commands_duration_seconds_total", "Time spent running commands, by command.", "cmd"),
		failed:        d("commands_failed_total", "Commands that ran and answered an error, by command.", "cmd"),
		rejected:      d("commands_rejected_total", "Commands refused before running (NOAUTH, BUSY...), by command.", "cmd"),
		latency:       d("command_duration_seconds", "Command run time, by command.", "cmd"),
		errs:          d("error_replies_total", "Error replies, by error code.", "code"),
		conns:         d("connected_clients", "Open client connections."),
		connsTotal:    d("connections_received_total", "Client connections accepted."),
		rejectedConns: d("rejected_connections_total", "Client connections refused (maxclients, protected mode)."),
		evicted:       d("evicted_keys_total", "Keys evicted under maxmemory-policy (INFO evicted_keys)."),
		blocked:       d("blocked_clients", "Clients waiting in a blocking command."),
		netIn:         d("net_input_bytes_total", "Bytes of commands read."),
		netOut:        d("net_output_bytes_total", "Bytes of replies written."),
		channels:      d("pubsub_channels", "Pub/Sub channels with subscribers."),
		pats:          d("pubsub_patterns", "Pub/Sub patterns with subscribers."),
		gc:            d("gc", "The GC's counters and backlogs (INFO gc), by name.", "name"),
		storage:       d("storage_bytes", "The store's size, by part.", "part"),
		nsCommands:    d("namespace_commands_total", "Commands of clients in the namespace, on this node.", "namespace"),
		nsClients:     d("namespace_connected_clients", "Connections in the namespace, on this node.", "namespace"),
		nsKeys:        d("namespace_keys", "The namespace's live keys, as last metered (named namespaces).", "namespace"),
		nsBytes:       d("namespace_bytes", "The namespace's estimated bytes, as last metered (named namespaces).", "namespace"),
		nsQuota:       d("namespace_quota", "The namespace's quotas (0: none), by quota.", "namespace", "quota"),
	}
}

func (c *collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.calls, c.usec, c.failed, c.rejected, c.latency, c.errs, c.conns,
		c.connsTotal, c.rejectedConns, c.evicted, c.blocked, c.netIn, c.netOut, c.channels, c.pats, c.gc, c.storage,
		c.nsCommands, c.nsClients, c.nsKeys, c.nsBytes, c.nsQuota} {
		ch <- d
	}
}

func (c *collector) Collect(ch chan<- prometheus.Metric) {
	counter := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v, labels...)
	}
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	m := c.src.Net()
	for _, cm := range m.Commands {
		counter(c.calls, float64(cm.Calls), cm.Name)
		counter(c.usec, float64(cm.Usec)/1e6, cm.Name)
		counter(c.failed, float64(cm.Failed), cm.Name)
		counter(c.rejected, float64(cm.Rejected), cm.Name)
		buckets := map[float64]uint64{}
		var cum uint64
		for i, b := range state.LatencyBounds() {
			cum += uint64(cm.Buckets[i])
			buckets[float64(b)/1e6] = cum
		}
		ch <- prometheus.MustNewConstHistogram(c.latency, cum+uint64(cm.Buckets[len(cm.Buckets)-1]),
			float64(cm.Usec)/1e6, buckets, cm.Name)
	}
	for code, n := range m.Errors {
		counter(c.errs, float64(n), code)
	}
	gauge(c.conns, float64(m.Connected))
	counter(c.connsTotal, float64(m.TotalConnections))
	counter(c.rejectedConns, float64(m.RejectedConnections))
	counter(c.evicted, float64(m.EvictedKeys))
	gauge(c.blocked, float64(m.Blocked))
	counter(c.netIn, float64(m.NetIn))
	counter(c.netOut, float64(m.NetOut))
	gauge(c.channels, float64(m.PubSubChannels))
	gauge(c.pats, float64(m.PubSubPatterns))
	for _, ns := range m.Namespaces {
		counter(c.nsCommands, float64(ns.Commands), ns.Name)
		gauge(c.nsClients, float64(ns.Clients), ns.Name)
		if ns.ID == 0 {
			continue
		}
		gauge(c.nsKeys, float64(ns.Usage.Keys), ns.Name)
		gauge(c.nsBytes, float64(ns.Usage.Bytes), ns.Name)
		for q, v := range map[string]int64{"max_keys": ns.Quota.Keys, "max_bytes": ns.Quota.Bytes,
			"max_ops_per_sec": ns.Quota.Ops, "max_clients": ns.Quota.Clients} {
			gauge(c.nsQuota, float64(v), ns.Name, q)
		}
	}
	if c.src.GC != nil {
		for _, kv := range c.src.GC() {
			if v, err := strconv.ParseFloat(kv[1], 64); err == nil {
				gauge(c.gc, v, kv[0])
			}
		}
	}
	if c.src.Storage != nil {
		for part, n := range c.src.Storage() {
			gauge(c.storage, float64(n), part)
		}
	}
}

// Server is the /metrics HTTP endpoint.
type Server struct {
	http *http.Server
	addr string
}

// Start listens on addr and serves /metrics until Close.
func Start(addr string, src Sources, log *slog.Logger) (*Server, error) {
	reg := prometheus.NewRegistry()
	if err := reg.Register(collectors.NewGoCollector()); err != nil {
		return nil, err
	}
	if err := reg.Register(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{})); err != nil {
		return nil, err
	}
	if err := reg.Register(newCollector(src)); err != nil {
		return nil, err
	}
	l, err := stdnet.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	s := &Server{http: &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}, addr: l.Addr().String()}
	go func() {
		if err := s.http.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("metrics endpoint stopped", "err", err)
		}
	}()
	return s, nil
}

// Addr returns the address the endpoint listens on.
func (s *Server) Addr() string { return s.addr }

// Close stops the endpoint.
func (s *Server) Close(ctx context.Context) error { return s.http.Shutdown(ctx) }
