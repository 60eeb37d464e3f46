// Package rjson is the JSON document type (codec.TypeJSON) as RedisJSON
// (Redis 8's JSON.* commands) keeps it: values with their number kinds
// (integers and floats stay apart: 3 and 3.0), objects in insertion
// order where removing a member moves the last one into its place, the
// JSONPath dialect RedisJSON implements (Compile, Eval), serde_json's
// parser limits and error texts (Parse: "expected value at line 1
// column 1", 128 levels deep) and its output (Append: ryu's shortest
// floats, "1e300"; INDENT/NEWLINE/SPACE as RedisJSON's formatter lays
// them out).
//
// Storage (Doc): a document is its compact text in chunks of
// codec.JSONChunk bytes. A command parses it, changes the tree and
// writes back only the chunks whose bytes changed, in its transaction.
package rjson
