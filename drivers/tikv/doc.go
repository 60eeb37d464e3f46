// Package tikv is the TiKV driver: many stateless rekv nodes share one TiKV
// cluster through tikv/client-go's transactional API (txnkv), with
// optimistic transactions.
//
// Invariants and choices:
//   - Values are stored with a one-byte format prefix (0x00), because TiKV
//     refuses empty values and rekv's layout has empty ones (score index,
//     garbage entries). Get, BatchGet and Iterate strip it.
//   - Conflicts are TiKV's write-write conflicts, plus the keys a
//     transaction asked to LockRead: those are committed as lock records,
//     so a concurrent commit of any of them makes this transaction fail
//     with drivers.ErrConflict (TiKV alone gives snapshot isolation;
//     LockRead turns the reads that matter into serializable ones).
//   - Versions come from TiKV's timestamp oracle (PD), unique across every
//     node of the cluster.
//   - Connecting to PD has a deadline (client-go alone retries for
//     minutes); the error names the addresses.
//   - client-go logs through the global logger of pingcap/log; Open routes
//     it to the given slog.Logger at warning level and above.
//   - PD address "mock://" starts client-go's in-process mock cluster
//     (testutils.NewMockTiKV): for tests and trying the distributed path,
//     never for data that matters (it lives in memory).
//   - Transactions are bounded like TiDB's: MaxTxnBytes in total and
//     MaxEntryBytes per key and value; past them writes fail with
//     drivers.ErrTxnTooBig.
package tikv
