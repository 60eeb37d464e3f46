// Package all lists every command family's registration table: the one
// place that decides which commands rekv serves. Adding a family means
// adding its table here; adding a command to a family needs nothing
// here.
//
// Invariant: each family's table is listed once; command.NewRegistry
// panics on a name registered twice, so two families cannot both claim
// a command.
package all
