// Package rdb is the part of Redis's RDB serialization that DUMP and
// RESTORE exchange: a value's type byte and payload, then the RDB version
// (2 bytes, little-endian) and a CRC-64 (Jones polynomial, reflected, 8
// bytes little-endian) of everything before it. Pure functions, no I/O.
//
// Strings, lists, sets, sorted sets and hashes are encoded (in the plain
// RDB types 0, 1, 2, 5 and 4, which Redis 7.0 loads) and decoded (those,
// plus what Redis 7.0 writes: quicklist 2 of listpacks, intsets, and the
// listpack forms of small hashes and sorted sets, and of small sets as
// Redis 7.2 writes them). Streams (stream.go) are encoded as Redis 7.0
// writes them (type 19, listpack nodes) and decoded from types 15, 19 and
// 21. Whole RDB files (file.go: what SAVE writes and a master sends a
// replica) are read key by key with the same decoders.
//
// Invariants:
//   - Dump writes RDB version 10 (Redis 7.0) and never compresses;
//     Verify accepts any version up to 10, as Redis 7.0 does.
//   - Decoders never read past their input: a short or malformed payload
//     is ErrFormat, whatever its bytes.
package rdb
