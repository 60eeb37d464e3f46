// Package scripting implements Lua scripting as Redis 7.0 has it: EVAL,
// EVALSHA, EVAL_RO, EVALSHA_RO and SCRIPT LOAD/EXISTS/FLUSH/KILL/HELP, on
// gopher-lua (a pure-Go Lua 5.1).
//
// Invariants:
//   - A script runs inside its command's one storage transaction: every
//     redis.call goes through the engine's execution path (command.Ctx.Call)
//     in that transaction, so no other client sees it half done, and its
//     keyspace events and PUBLISHed messages leave only after the commit.
//   - A script holds the shards of its declared keys (KEYS). The first
//     redis.call that touches a key on a shard it does not hold aborts the
//     attempt with command.ErrAllShards; the engine rolls it back and runs
//     the script again holding every shard. Scripts are Serial: their
//     connection reads nothing more until they reply, so no later command
//     of the same client can overtake the re-run.
//   - Lua states are pooled. A script cannot leave state behind: every
//     table reachable from the globals (the libraries, the metatables) is
//     read-only (gopher-lua's read-only tables, rekv's patch), reading a
//     missing global is an error, getfenv and setfenv are gone, and KEYS
//     and ARGV are set from Go per run. SCRIPT FLUSH starts a new
//     generation of states; older ones are dropped, never reused.
//   - Library code (FUNCTION LOAD) runs in its own environment, with only
//     redis.register_function, redis.log and the constants; the functions
//     it registers read the full, read-only globals through it. A
//     library's own upvalues live per state (each pooled state loads the
//     libraries once per generation of them).
//   - Replies convert between Lua and RESP exactly as Redis 7.0 does
//     (convert.go); error replies carry " script: <sha>, on
//     @user_script:<line>." as Redis's do.
package scripting
