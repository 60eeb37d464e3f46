// Package drivers defines the small transactional ordered key-value interface
// rekv stores Redis data on, and the sentinel errors drivers report.
//
// Invariants every driver keeps (checked by drivers/driverstest):
//   - A Txn sees its own writes; Commit makes all of them visible at once or
//     none of them.
//   - Two transactions that write the same key and overlap in time cannot
//     both commit: the loser's Commit returns an error wrapping
//     ErrConflict, and the caller may retry from Begin. The same holds when
//     one only read the key and passed it to LockRead (drivers whose
//     transactions are serializable, like Badger, detect every read).
//   - Iterate visits keys in byte order (or reverse order) within
//     [start, end); a nil end means "to the end of the key space".
//   - Slices returned by Get and BatchGet belong to the caller. Slices passed
//     to an Iterate callback are only valid during that call.
//   - NextVersion never returns the same value twice for the life of the
//     store, including across restarts.
package drivers
