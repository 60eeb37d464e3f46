// Package stream implements the Redis stream commands on the stream type
// (actors/types/rstream): XADD, XLEN, XRANGE, XREVRANGE, XDEL and XTRIM.
// Entry IDs and trimming follow Redis 7.0; approximate trimming (~) drops
// only whole groups of 100 oldest entries, as Redis drops whole radix-tree
// nodes of stream-node-max-entries (100) entries.
package stream
