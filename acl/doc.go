// Package acl keeps Redis 7's access control lists: users with passwords,
// the commands they may run (by command, subcommand and category), the
// keys (read, write or both) and the Pub/Sub channels they may touch.
//
// Invariants:
//   - A User is immutable once stored: SETUSER builds a new one from the
//     old and swaps the whole user table (copy on write), so the hot path
//     checks permissions on a snapshot without locks.
//   - Permissions are kept per leaf command: a plain command, or each
//     subcommand of a container. Rules on a container apply to all its
//     subcommands; categories come from the command table (Catalog).
//   - Passwords are kept as SHA-256 hex digests only.
//   - The "default" user always exists; it is what requirepass sets.
package acl
