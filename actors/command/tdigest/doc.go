// Package tdigest implements the t-digest commands (TDIGEST.*), Redis 8's
// built-in type from RedisBloom, on the digest type (actors/types/
// rtdigest): RedisBloom's replies, error texts ("ERR T-Digest: ...") and
// their order, and its DUMP encoding, so a digest moves between rekv
// and Redis 8.
//
// Invariant: as in RedisBloom, a command on a missing or mistyped key
// reports that before any error in its other arguments, so those are
// parsed in Run, after the key is open. Reads compress a copy of the
// digest in memory and store nothing (RedisBloom compresses the digest
// itself on a read, which TDIGEST.INFO then shows).
package tdigest
