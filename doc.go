// Command rekv is a Redis-compatible server that keeps every Redis type on
// an ordered key-value store: embedded Badger by default.
//
// Invariants: main only wires (conf.Load, then node.Start); the process
// exits non-zero when it could not start or a stop ran past
// server.shutdown_timeout, saying what may be lost; a second signal
// exits at once.
package main
