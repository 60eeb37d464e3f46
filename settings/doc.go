// Package settings is the table of every setting rekv has: each row is one
// setting, with its key in the configuration file, its Redis CONFIG name,
// its type, default and bounds, and whether CONFIG SET may change it and
// how it then applies. Everything else is produced from the table:
// package conf loads the file, environment and flags with the table's
// defaults and checks each value against its row; package net's CONFIG
// GET, SET and REWRITE serve the rows with a Redis name (and apply the
// live ones); rekv.example.yaml and docs/settings.md are generated from it
// (go generate ./settings), and tests fail when they are stale.
//
// Invariants: a key or CONFIG name appears in one row; a row with a
// Redis name but no key is a Redis parameter with no rekv setting of its
// own (given at start under server.redis); an alias row names a
// parameter of another row and nothing else. The table is pure data:
// the package does no I/O.
package settings

//go:generate go run ./gen ..
