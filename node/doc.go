// Package node wires one rekv server from a conf.Config: the storage
// driver, the command registry, the actor engine and the network front. It
// is what main runs and what the integration tests start.
//
// Shutdown order keeps every acknowledged write: stop accepting and close
// connections, let the actors finish what is queued, then close storage
// (which syncs it).
//
// ApplyRuntime, StartIdleRelease and StartGCFloor act on the whole
// process (the Go runtime's settings, collecting and returning free heap
// once the process goes quiet after a burst of allocation, keeping a
// small live heap from being collected many times a second): main calls
// them once, Start never does, since the tests run many nodes in one
// process.
package node
