// Package tx implements MULTI, EXEC, DISCARD, WATCH and UNWATCH. They are
// connection commands that are never queued (flag Transaction): each drives
// the connection's transaction state through command.Client. WATCH and EXEC
// hand their work to the engine, which holds the keys' shards, runs it
// (actors/transaction.go) and replies later.
package tx
