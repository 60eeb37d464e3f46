// Package rhash is the hash type's operations on a store transaction: one
// sub-key per field (value: the field's value) under the key's version, the
// exact field count in the meta.
//
// Invariant: the count is kept here. Every function that adds or removes
// fields adds or removes them from the meta's count in the same call;
// commands never adjust it (lint checks that no command calls Grow).
package rhash
