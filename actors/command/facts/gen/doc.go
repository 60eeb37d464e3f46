// Command gen regenerates the command facts from a running redis-server:
// actors/command/facts/info.json (COMMAND INFO), args.json (COMMAND
// DOCS) and acl/categories.json (each command's ACL categories).
//
//	redis-server --port 6399 --save '' &
//	go run ./actors/command/facts/gen -addr 127.0.0.1:6399
//
// (or go generate ./actors/command/facts with a server on 6379). info.json
// and args.json hold the commands rekv registers (all.Registry) and those
// already in the files; categories.json every command the server has, so
// ACL rules name Redis's whole table. Entries the server does not know
// (Redis 7.2 commands, when run against 7.0) are kept as they are and
// listed on stderr; summaries.txt is rekv's own and not touched.
package main
