package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"syscall"

	"github.com/rekv/rekv/conf"
	"github.com/rekv/rekv/node"
)

func main() {
	sig := make(chan os.Signal, 2)
	signalNotify(sig)
	os.Exit(run(os.Args[1:], os.Environ(), sig, nil))
}

// signalNotify sends the signals that stop the server to sig.
func signalNotify(sig chan<- os.Signal) { signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM) }

// run starts the server and returns the exit code once it stopped: on a
// signal from sig or SHUTDOWN. The stop is bounded by shutdown-timeout,
// and a second signal cuts it short. ready, when set, gets the node once
// it serves (tests).
func run(args, environ []string, sig <-chan os.Signal, ready chan<- *node.Node) int {
	cfg, path, err := conf.Load(args, environ, os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "rekv: invalid configuration:\n%v\n", err)
		return 2
	}
	log, level := newLogger(cfg.Log)
	sz := cfg.Memory.Sizing()
	log.Info("memory budget", "budget_mib", sz.Budget>>20, "go_memory_limit_mib", cfg.Runtime.MemoryLimitMiB,
		"block_cache_mib", cfg.Storage.Badger.BlockCacheMiB, "index_cache_mib", cfg.Storage.Badger.IndexCacheMiB,
		"memtable_mib", cfg.Storage.Badger.MemTableMiB, "base_table_mib", cfg.Storage.Badger.BaseTableMiB, "meta_cache_size", cfg.Actors.MetaCacheSize,
		"member_cache_size", cfg.Actors.MemberCacheSize, "list_cache_mib", cfg.Actors.ListCacheMiB,
		"maxmemory_clients_mib", sz.ClientsBytes>>20)
	node.ApplyRuntime(cfg.Runtime, log)
	defer node.StartIdleRelease(cfg.Runtime, log)()
	defer node.StartGCFloor(cfg.Runtime, log)()
	if cfg.Debug.PprofAddr != "" {
		go servePprof(cfg.Debug.PprofAddr, log)
	}
	n, err := node.Start(cfg, path, log, node.WithLogLevel(level))
	if err != nil {
		log.Error("start failed", "err", err)
		return 1
	}
	if ready != nil {
		ready <- n
	}
	select {
	case s := <-sig:
		log.Info("shutting down", "signal", s.String())
	case <-n.Done():
		log.Info("shutting down", "by", "SHUTDOWN")
	}
	timeout := n.ShutdownTimeout()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- n.Close(ctx) }()
	lost := fmt.Sprintf("writes acknowledged since the store's last sync may be lost (durability %s)", n.Durability())
	select {
	case err := <-done:
		if err != nil {
			log.Error("shutdown", "err", err)
			return 1
		}
		log.Info("bye")
		return 0
	case <-ctx.Done():
		log.Error("shutdown did not finish within shutdown-timeout: exiting with the store not closed; "+lost,
			"timeout", timeout)
	case s := <-sig:
		log.Error("second signal: exiting at once with the store not closed; "+lost, "signal", s.String())
	}
	return 1
}

// newLogger returns the process's logger and its level, which CONFIG SET
// loglevel changes.
func newLogger(c conf.Log) (*slog.Logger, *slog.LevelVar) {
	var level slog.Level
	_ = level.UnmarshalText([]byte(c.Level))
	lv := new(slog.LevelVar)
	lv.Set(level)
	opts := &slog.HandlerOptions{Level: lv}
	if c.Format == "json" {
		return slog.New(slog.NewJSONHandler(os.Stderr, opts)), lv
	}
	return slog.New(slog.NewTextHandler(os.Stderr, opts)), lv
}

// servePprof serves the profiler on a loopback address (debug.pprof_addr).
func servePprof(addr string, log *slog.Logger) {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	log.Info("pprof listening", "addr", addr)
	if err := http.ListenAndServe(addr, mux); err != nil {
		log.Error("pprof", "err", err)
	}
}
