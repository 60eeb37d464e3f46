// Command tikvload is the raw client-go load that bench/tikv.sh sets
// beside rekv: the given number of goroutines each run one-key
// transactions (a read: Get in a fresh transaction; a write: Set and
// commit) against a TiKV cluster for a fixed time, on random keys of a
// keyspace in a namespace of their own, and it prints the transactions
// per second. This is what the store alone gives one client process at
// that concurrency. client-go logs to standard output and error; the
// result is the one line with "txn/s".
//
// With -batch N (N > 1) a write transaction reads N keys in one BatchGet
// and writes them, as a rekv shard's group commit does for N commands:
// its keys/s at -c 1 is what the store gives one group at a time, the
// ceiling of a node whose writes go in one group at a time.
//
//	go run ./bench/tikvload -pd 127.0.0.1:2379 -op read -c 50 -d 10s
//	go run ./bench/tikvload -pd 127.0.0.1:2379 -op write -batch 45 -c 1
package main
