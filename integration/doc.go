// Package integration holds end-to-end tests: each starts a real rekv
// server on a free loopback port and drives it with go-redis v9 (RESP2 and
// RESP3) and with raw RESP bytes, once per storage driver. Differential
// tests also start Debian's redis-server and compare replies byte for byte.
package integration
