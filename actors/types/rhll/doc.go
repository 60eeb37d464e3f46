// Package rhll is the type-operations layer of HyperLogLog: Redis's own
// representation (the "HYLL" header, sparse and dense encodings) kept as a
// plain string, so GET, SET and DUMP of an HLL interoperate with Redis and
// counts equal Redis's for the same inputs.
//
// Layout (as Redis 7.0): a 16-byte header — "HYLL", the encoding (0 dense,
// 1 sparse), 3 unused bytes, the cached cardinality as 8 little-endian
// bytes whose top bit marks the cache stale — then the registers: 16384
// registers of 6 bits packed little-endian (dense, 12288 bytes), or runs
// of opcodes (sparse): ZERO 00xxxxxx (1-64 zero registers), XZERO
// 01xxxxxx yyyyyyyy (1-16384 zeros), VAL 1vvvvvxx (1-4 registers of value
// 1-32).
//
// Invariants:
//   - The sparse form is not canonical: its bytes depend on the order of
//     updates. Set follows Redis's update procedure step by step (split the
//     run holding the register, then merge equal neighbouring values over
//     at most five opcodes), so the same adds give the same bytes.
//   - A sparse HLL becomes dense when a register needs a value over 32 or
//     its length would pass SparseMaxBytes (hll-sparse-max-bytes, 3000).
package rhll
