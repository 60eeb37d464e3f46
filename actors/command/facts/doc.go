// Package facts holds what Redis 7's own command table says of each
// command rekv serves, so that a command's Spec can carry it: COMMAND
// INFO's flags, legacy key range, ACL categories, tips and key
// specifications (info.json), COMMAND DOCS's group, version, doc flags
// and argument structure (args.json), and rekv's own summary and
// complexity of each command (summaries.txt).
//
// Invariants:
//   - The data is embedded and only read: Load parses it into a fresh
//     Table; nothing is shared between tables.
//   - Entries are keyed by full name: "get", or "config|get" for a
//     subcommand.
//   - info.json and args.json are generated from a running redis-server
//     (go generate; see gen/), except the entries of commands that
//     server does not have (Redis 7.2 additions), which the generator
//     keeps as they are. summaries.txt is written by hand.
//   - Functions here are pure: key specifications are evaluated on
//     argument lists, with no I/O.
//
// command.NewRegistry attaches each Spec's Info and Doc at registration;
// the registry test in package command names every registered command
// that lacks them.
package facts
