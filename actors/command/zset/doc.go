// Package zset implements the Redis sorted-set commands. Each member has a
// sub-key holding its score's IEEE bits, and a score-index entry
// 'z' | ... | sortable score | member, so the index is ordered by score and
// then member bytes, as Redis's skiplist is. -0 is stored as 0. Rank ranges
// walk the index from the nearer end; score ranges seek into it; lex ranges
// seek the member sub-keys. One file per command (variants share a file
// with their base command); Commands is the table.
package zset
