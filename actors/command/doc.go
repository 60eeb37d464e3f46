// Package command declares how a Redis command is described, parsed and run,
// and maps errors to RESP in one place.
//
// Each command is declared once as a Spec with named metadata (name, arity,
// flags, key positions), so arity and key routing are checked centrally
// before a command's own parser sees its arguments. A command's Parse turns
// the arguments into a Runner without touching storage; Run executes it
// against a Ctx and either writes its whole reply and returns nil, or writes
// nothing and returns an error, which Reply translates to RESP.
//
// The per-type command folders (strings, keys, server) each export one
// explicit registration table, Commands().
package command
