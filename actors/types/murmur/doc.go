// Package murmur is Austin Appleby's MurmurHash2 and MurmurHash64A
// (public domain), the hashes RedisBloom's probabilistic types use.
//
// Invariant: the values are bit-exact with the C originals (SMHasher's
// verification values are checked), so a filter or sketch dumped from
// Redis answers the same here. Pure functions, no state.
package murmur
