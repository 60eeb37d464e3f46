// Package json implements the JSON.* commands (Redis 8's built-in JSON
// type from RedisJSON) on the document type (actors/types/rjson).
//
// Each command takes a path in either syntax: a JSONPath ("$..."), whose
// replies hold one answer per matching value (nil where the value is of
// the wrong type), or a legacy path (".a.b", "a", "."), whose reply is
// one answer (the last match changed, or the first read) and which
// fails where no value matches. Replies and error texts are
// RedisJSON's, including the ones it sends without an ERR code (a
// document that is not JSON: "expected value at line 1 column 1"; a
// key of another type: "Existing key has wrong Redis type").
//
// Invariant: a command reads the document once, changes it in memory and
// saves it once (rjson.Doc), all in its transaction; a command that
// changes nothing writes nothing (and raises no keyspace event).
package json
