// Package stream implements the Redis stream commands on the stream type
// (actors/types/rstream): XADD, XLEN, XRANGE, XREVRANGE, XDEL and XTRIM.
// Entry IDs and trimming follow Redis 7.0; approximate trimming (~, LIMIT)
// removes only whole nodes of the radix tree Redis would hold
// (rstream's nodes, bounded by stream-node-max-entries and -bytes).
package stream
