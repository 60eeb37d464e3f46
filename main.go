// Command rekv is a Redis-compatible server that keeps every Redis type on
// an ordered key-value store: embedded Badger by default.
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
	"time"

	"github.com/rekv/rekv/conf"
	"github.com/rekv/rekv/node"
)

func main() {
	os.Exit(run(os.Args[1:], os.Environ()))
}

func run(args, environ []string) int {
	cfg, path, err := conf.Load(args, environ, os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "rekv: invalid configuration:\n%v\n", err)
		return 2
	}
	log, level := newLogger(cfg.Log)
	if cfg.Debug.PprofAddr != "" {
		go servePprof(cfg.Debug.PprofAddr, log)
	}
	n, err := node.Start(cfg, path, log, node.WithLogLevel(level))
	if err != nil {
		log.Error("start failed", "err", err)
		return 1
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	select {
	case s := <-sig:
		log.Info("shutting down", "signal", s.String())
	case <-n.Done():
		log.Info("shutting down", "by", "SHUTDOWN")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := n.Close(ctx); err != nil {
		log.Error("shutdown", "err", err)
		return 1
	}
	log.Info("bye")
	return 0
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
