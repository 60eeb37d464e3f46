// Package commandtest runs one-line commands ("set k v nx ex 10") against
// in-memory Badger with a clock the test controls, for command table tests.
// Commands run through actors.Runtime.Step, the path the server uses, so
// the tests also exercise keyspace events and panic recovery.
//
// Invariant: a command runs here exactly as in the server (its Spec's
// Parse, then Step in one store transaction, committed after), so a
// table test and a client see the same reply and the same stored bytes.
package commandtest
