// Package hll implements PFADD, PFCOUNT and PFMERGE on HyperLogLogs kept
// as strings in Redis's own representation (actors/types/rhll): an HLL
// written by Redis reads here and the other way round, and counts are
// Redis's for the same elements.
//
// PFCOUNT of one key stores the count it computed in the HLL's header, as
// Redis does, so it is a write in rekv (Redis flags it read-only with a
// note that it may change the key).
package hll
