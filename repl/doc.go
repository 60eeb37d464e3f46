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
//     master's order. A transaction (MULTI ... EXEC) runs as one EXEC.
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
// Export is the other direction's full sync: the whole store as an RDB
// file (SYNC for redis-cli --rdb), read from one read-only driver
// transaction, which every store transaction of the export shares (a
// fresh one per 512 keys, so the keys looked up do not pile up), and
// written as it is read (rdb.FileWriter): consistent while writes go on,
// never whole in memory.
package repl
