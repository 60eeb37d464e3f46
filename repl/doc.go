// Package repl makes a rekv node a replica of a Redis (or rekv) master
// over Redis's replication protocol (REPLICAOF): the PSYNC handshake, a
// full sync that loads the master's RDB file, then the master's command
// stream applied in order, acknowledged every second and on REPLCONF
// GETACK, and a partial resync (+CONTINUE) after a dropped link.
//
// Invariants:
//   - One link at a time: Follow stops the running link (and waits for it
//     to end) before it starts another or promotes the node.
//   - The master's commands go to the engine in stream order from one
//     goroutine, as one client's (actors.Engine.Dispatch keeps a client's
//     commands in order on every shard), so every key sees them in the
//     master's order. A transaction (MULTI ... EXEC) runs as one EXEC
//     (one per database it SELECTs), none of it before its EXEC arrives.
//   - The offset acknowledged and offered in PSYNC counts only the bytes
//     of commands handed to the engine (none of a transaction until its
//     EXEC), so a partial resync resends exactly what was not applied.
//     Commands handed to the engine are applied even when the link drops
//     right after; the replies of the master's commands go nowhere, and
//     errors among them are counted and logged.
//   - A full sync writes the RDB to a file in the data directory first
//     (never the whole file in memory), maps it, flushes every database,
//     then restores each key (RESTORE ... REPLACE ABSTTL of the file's own
//     bytes) and each function library, with at most maxInFlight commands
//     unanswered; the file is removed once loaded.
//   - The package never writes to a client: net reads Status for ROLE,
//     INFO replication and the READONLY, MASTERDOWN and LOADING refusals.
//
// The master side (master.go, backlog.go, failover.go): once a replica
// comes, the engine hands every committed transaction's effects to the
// node (actors.Sink), which appends them to the backlog, the stream of
// the node's writes numbered by offset.
//
// Invariants:
//   - Effects are appended right after their commit, under the engine's
//     commit read lock and while their keys' shards are held: the stream
//     has every key's writes in commit order, and a full sync's snapshot,
//     begun under the commit write lock (actors.Engine.Quiesce) with the
//     backlog's end read there, holds exactly the writes before that
//     offset; the replica joins the stream there.
//   - The backlog keeps the last repl-backlog-size bytes and everything a
//     connected replica was not sent, up to 256 MB behind its end; a
//     replica further behind is dropped (it syncs again). The node's
//     master_repl_offset is the backlog's end, set under its lock.
//   - A replica's acknowledged offset comes only from its REPLCONF ACK;
//     WAIT counts replicas whose acknowledgement reached the offset when
//     it was called; a replica silent for repl-timeout once online is
//     dropped.
//   - While the node is a replica nothing is appended (its writes are its
//     master's) and it serves no replica of its own; becoming one drops
//     its replicas and its backlog.
//   - FAILOVER pauses writes until the replica acknowledged the whole
//     stream, then follows it with PSYNC ... FAILOVER: the replica
//     promotes itself and continues this node's history, so neither loads
//     anything; writes resume when the hand-over ends, either way.
//
// Export is the other direction's full sync: the whole store as an RDB
// file (SYNC for redis-cli --rdb), read from one read-only driver
// transaction, which every store transaction of the export shares (a
// fresh one per 512 keys, so the keys looked up do not pile up), and
// written as it is read (rdb.FileWriter): consistent while writes go on,
// never whole in memory.
package repl
