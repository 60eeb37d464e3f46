// Package server implements connection and server commands. Those flagged
// Conn (PING, ECHO, HELLO, SELECT, CLIENT, COMMAND, TIME, QUIT, CONFIG) run
// on the connection's event loop and never touch storage; INFO runs on the
// shards under the all-shards barrier because its keyspace section reads
// storage.
package server
