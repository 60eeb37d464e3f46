// Package cms implements the count-min sketch commands (CMS.*), Redis 8's
// built-in type from RedisBloom, on the sketch type (actors/types/rcms):
// replies and errors as RedisBloom's ("CMS: key does not exist"...), a
// sketch DUMPed here restoring into Redis 8 and the other way round.
//
// Invariant: as in RedisBloom, a command on a missing or mistyped key
// reports that before any argument error: argument errors found by Parse
// wait in the runner until Run has looked at the key.
package cms
