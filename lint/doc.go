// Package lint holds checks over the whole source tree that no compiler
// makes: the layering rules between rekv's packages (lint_test.go).
//
// The layers, bottom up: codec, rerr, resp and drivers know nothing of
// rekv; the drivers implement the driver interface and never learn the
// codec's layout; actors/store is the key model on a driver transaction;
// actors/types/* are the Redis types' operations on the store; the command
// folders (actors/command/*) are thin adapters from arguments to type
// operations and never touch a driver; the engine (actors), the network
// front (net), the GC (gc) and the wiring (node) sit on top. The rules are
// checked on non-test imports: tests may wrap a driver to count its work.
package lint
