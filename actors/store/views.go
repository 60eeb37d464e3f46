package store

// A Tx's operations are grouped by concern. The key model (meta, types,
// versions, strings, expiry, rename, copy) is Tx's own; the rest is
// reached through a view naming its concern, so a reader of a command
// sees which it touches:
//
//   - Records: database records (FLUSH, SWAPDB), the sweeps over them,
//     and rekv's system keys (records.go, sweeps.go, system.go);
//   - Repl: the effects a transaction leaves for replicas and the AOF
//     (effects.go);
//   - Access: keys' access times and LFU counters (OBJECT, RESTORE,
//     DEBUG OBJECT), and reads that do not count as accesses;
//   - Journal: what the transaction did, for those who act on it after
//     the commit (journal.go).
//
// A view is a value holding its Tx: free to make, valid as long as the
// Tx is.

// Records is a transaction's database records and system keys.
type Records struct{ t *Tx }

// Records returns the transaction's database records and system keys.
func (t *Tx) Records() Records { return Records{t} }

// Repl is the effects a transaction leaves for replicas and the AOF.
type Repl struct{ t *Tx }

// Repl returns the transaction's replication effects.
func (t *Tx) Repl() Repl { return Repl{t} }

// Access is keys' access times and LFU counters.
type Access struct{ t *Tx }

// Access returns the access clocks the transaction reads and sets.
func (t *Tx) Access() Access { return Access{t} }

// Journal returns what the transaction did, for those who act on it
// after the commit.
func (t *Tx) Journal() *Journal { return &t.jr }
