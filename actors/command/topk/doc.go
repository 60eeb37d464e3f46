// Package topk implements the Top-K commands (TOPK.*), Redis 8's
// built-in type from RedisBloom, on the Top-K type (actors/types/rtopk):
// RedisBloom's defaults (width 8, depth 7, decay 0.9), replies and
// errors ("TopK: key does not exist"...).
//
// Invariant: a command's decays are drawn from the key's own generator,
// so TOPK.ADD and TOPK.INCRBY, replicated as they are, leave a replica's
// key equal to its master's.
package topk
