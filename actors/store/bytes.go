package store

import "unsafe"

// bytesOf returns the bytes of s without copying them, for passing a meta
// key held as a string (the seen map's and the caches' key) to what takes
// a []byte: the cache resolvers and the driver's Get, Set and LockRead.
// None of them modifies a key, and what a driver keeps it copies (Set
// copies key and value, drivers.Txn), so the string stays immutable; a
// conversion would allocate once per look-up.
func bytesOf(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }
