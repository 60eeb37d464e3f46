// Package list implements the Redis list commands, blocking ones included.
//
// A list's elements live under sub-keys of its live version at contiguous
// uint64 indexes [head, tail), kept in the meta with the exact length
// (tail-head). LPUSH writes head-1, RPUSH writes tail; both start at
// store.ListOrigin (2^63). Invariants:
//   - every index in [head, tail) holds an element: LINDEX, LSET and LRANGE
//     address elements directly, LRANGE reads only the range it returns;
//   - LINSERT and LREM keep the indexes contiguous by moving the shorter
//     side of the change; LTRIM deletes the trimmed ends, or copies the
//     survivors to a new version when they are fewer;
//   - a list emptied by pops or trims deletes its meta, like Redis.
//
// Pushes signal their key (store.Coll.Signal); after the commit the engine
// serves clients blocked in BLPOP, BRPOP, BLMOVE, BRPOPLPUSH and BLMPOP,
// whose Runners are command.Blockers. One file per command; Commands is
// the table.
package list
