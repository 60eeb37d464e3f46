// Package metrics serves rekv's figures in the Prometheus text format
// (metrics.addr, off by default), through prometheus/client_golang.
//
// Invariants:
//   - Nothing is counted on the command path for metrics' sake: a scrape
//     reads the counters the server keeps anyway (INFO's), the GC's
//     counters and the storage's sizes, and turns them into constant
//     metrics; the Go runtime and process collectors come with the
//     library.
//   - The endpoint serves only /metrics, on its own HTTP server, which
//     Close stops.
package metrics
