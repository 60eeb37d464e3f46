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
//   - Lua states are pooled. A script cannot leave state behind: globals are
//     read-only (writing one is an error, reading a missing one too) and
//     the libraries are read-only proxies; KEYS and ARGV are set per run.
//   - Replies convert between Lua and RESP exactly as Redis 7.0 does
//     (convert.go); error replies carry " script: <sha>, on
//     @user_script:<line>." as Redis's do.
package scripting
