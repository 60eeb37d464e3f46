// Package keys implements the generic keyspace commands (DEL, EXISTS, TYPE,
// EXPIRE and TTL families, RENAME, KEYS, SCAN, RANDOMKEY, DBSIZE, FLUSHDB,
// FLUSHALL). They work on every type through the meta record, so new types
// need nothing here. One file per command; Commands is the table.
package keys
