// Package rstream is the stream type's operations on a store transaction:
// entries as sub-keys ordered by ID (codec stream entry fields) under the
// key's version, the length, last ID, largest deleted ID, entries-added
// count and tail node in the meta, and the closed nodes of the radix tree
// Redis would hold as records (nodes.go). A stream exists even when empty.
//
// Invariant: the meta's length, IDs and counters, and each node's live and
// deleted counts, are kept here, in the same call that adds, trims or
// deletes entries; commands never adjust them (lint checks that no command calls SetStream).
package rstream
