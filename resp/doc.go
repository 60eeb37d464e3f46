// Package resp reads and writes the Redis serialization protocol. It is pure:
// Parse reads one command from a byte slice and says how many bytes it used,
// and Writer appends replies to a byte slice, in RESP2 or RESP3.
//
// Invariants:
//   - Parse never reads past len(buf) and never allocates from a declared
//     length: a bulk is only sliced once all its bytes are present, and
//     declared lengths are checked against Limits first.
//   - Multibulk arguments returned by Parse alias buf; callers copy them
//     before buf changes. Inline arguments may be fresh slices.
//   - Protocol errors carry Redis's exact wording; after one the connection
//     is to be closed, as Redis does.
package resp
