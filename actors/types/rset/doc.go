// Package rset is the set type's operations on a store transaction: one
// sub-key per member (empty value) under the key's version, the exact
// member count in the meta. A nil *store.Coll is a missing key and reads
// as empty.
//
// Invariant: the count is kept here, in the same call that adds or
// removes members; commands never adjust it (lint checks that no command
// calls Grow).
package rset
