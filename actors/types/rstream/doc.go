// Package rstream is the stream type's operations on a store transaction:
// entries as sub-keys ordered by ID (codec stream entry fields) under the
// key's version, the length, last ID, largest deleted ID and entries-added
// count in the meta. A stream exists even when empty.
//
// Invariant: the meta's length, IDs and counters are kept here, in the
// same call that adds, trims or deletes entries; commands never adjust
// them (lint checks that no command calls SetStream).
package rstream
