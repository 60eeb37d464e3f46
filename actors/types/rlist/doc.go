// Package rlist is the list type's operations on a store transaction:
// elements at contiguous uint64 indexes [head, tail) under the key's
// version (codec sub-keys), LPUSH at head-1, RPUSH at tail, both starting
// at 2^63. Point reads and writes by index; inserts and removals in the
// middle move the shorter side.
//
// Invariant: the bounds and the count in the meta are kept here, in the
// same call that moves elements; commands never adjust them (lint checks
// that no command calls SetBounds or Grow).
package rlist
