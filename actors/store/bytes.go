package store

import "unsafe"

// bytesOf returns the bytes of s without copying them, for passing a meta
// key held as a string (the seen map's and the caches' key) to what takes
// a []byte: the cache resolvers and the driver's Get, Set and LockRead.
// None of them modifies a key, and what a driver keeps it copies (Set
// copies key and value, drivers.Txn), so the string stays immutable; a
// conversion would allocate once per look-up.
func bytesOf(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// stringOf returns b as a string without copying it, for bytes nobody
// modifies afterwards (the driver's owned keys, a member's block).
func stringOf(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
