// Package storetest gives the type-operation tests a store on in-memory
// Badger: Begin opens a write transaction, Commit commits it.
//
// Invariant: each store is private to its test (a new in-memory Badger)
// and closed when the test ends.
package storetest
