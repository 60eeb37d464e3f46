// Package glob matches Redis glob-style patterns (KEYS, SCAN MATCH,
// PSUBSCRIBE) with exactly the semantics of Redis's stringmatchlen: *, ?,
// [abc], [^abc], [a-z], and \ escapes; unterminated classes match what they
// hold so far. Like Redis, no pattern matches the empty string except the
// empty pattern (KEYS * special-cases "*"). Matching is bounded: a pattern
// cannot make it exponential.
package glob
