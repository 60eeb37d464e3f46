// Package lint holds checks over the whole source tree that no compiler
// makes: the layering rules between rekv's packages (lint_test.go), the
// length of a source file (length_test.go: at most 700 lines outside
// tests; past that a file is split by role), that every package has a
// doc.go with its comment and invariants (doc_test.go), that nothing
// decides by a command's name instead of its Spec (names_test.go), and
// that collection counts
// are kept by the type packages, never by a command (bookkeeping_test.go).
//
// The layers, bottom up: codec, rerr, resp, glob, guard, the command facts
// (actors/command/facts), cluster (slots and the slot map) and drivers
// know nothing of rekv; cluster/membership keeps records in the store; acl knows
// users and permissions and sees a command only through acl.Command; the
// drivers implement the driver interface and never learn the codec's
// layout; actors/store is the key model on a driver transaction;
// actors/types/* are the Redis types' operations on the store; the
// command folders (actors/command/*) are thin adapters from arguments to
// type operations, never touch a driver and never import one another
// (only actors/command/all lists them all); the engine (actors), the
// network front (net, which reaches commands only through package
// command), the GC (gc) and the wiring (node) sit on top. The rules are
// checked on non-test imports: tests may wrap a driver to count its work.
package lint
