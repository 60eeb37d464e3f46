package integration

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// jsonCase is one command and its exact reply.
type jsonCase struct {
	cmd  []string
	want string
}

func jbulk(s string) string { return fmt.Sprintf("$%d\r\n%s\r\n", len(s), s) }

func jints(vs ...any) string {
	out := fmt.Sprintf("*%d\r\n", len(vs))
	for _, v := range vs {
		if v == nil {
			out += "$-1\r\n"
		} else {
			out += fmt.Sprintf(":%d\r\n", v)
		}
	}
	return out
}

func jbulks(vs ...any) string {
	out := fmt.Sprintf("*%d\r\n", len(vs))
	for _, v := range vs {
		if v == nil {
			out += "$-1\r\n"
		} else {
			out += jbulk(v.(string))
		}
	}
	return out
}

func runJSONCases(t *testing.T, addr string, cases []jsonCase) {
	t.Helper()
	c := dialRaw(t, addr)
	c.do("FLUSHALL")
	for _, tc := range cases {
		if got := c.do(tc.cmd...); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.cmd, got, tc.want)
		}
	}
}

const jOK, jNil = "+OK\r\n", "$-1\r\n"

// TestJSONReplies: JSON.* replies byte for byte, with the values and
// texts RedisJSON's own tests (tests/pytest/test.py, test_multi.py)
// expect, in RESP2 (no Redis 8 server is available to record them from).
func TestJSONReplies(t *testing.T) {
	doc := `{"a":1,"nested":{"a":2,"b":3}}`
	arrs := `{"a":["foo"],"nested1":{"a":["hello",null,"world"]},"nested2":{"a":31}}`
	forEachDriver(t, func(t *testing.T, addr string) {
		runJSONCases(t, addr, []jsonCase{
			// SET / GET, paths of both syntaxes.
			{[]string{"JSON.SET", "doc", "$", doc}, jOK},
			{[]string{"JSON.GET", "doc"}, jbulk(doc)},
			{[]string{"JSON.GET", "doc", "$"}, jbulk("[" + doc + "]")},
			{[]string{"JSON.GET", "doc", "$..a"}, jbulk("[1,2]")},
			{[]string{"JSON.GET", "doc", "..a"}, jbulk("1")},
			{[]string{"JSON.GET", "doc", ".nested.b"}, jbulk("3")},
			{[]string{"JSON.GET", "doc", "nested"}, jbulk(`{"a":2,"b":3}`)},
			{[]string{"JSON.GET", "doc", "$.nowhere"}, jbulk("[]")},
			{[]string{"JSON.GET", "doc", ".nowhere"}, "-ERR Path '$.nowhere' does not exist\r\n"},
			{[]string{"JSON.GET", "doc", "..a", "$..b"}, jbulk(`{"..a":[1,2],"$..b":[3]}`)},
			{[]string{"JSON.GET", "doc", ".a", ".nested.b"}, jbulk(`{".a":1,".nested.b":3}`)},
			{[]string{"JSON.GET", "doc", ".a", ".nope"}, "-ERR Path '.nope' does not exist\r\n"},
			{[]string{"JSON.GET", "doc", "INDENT", "\t", "NEWLINE", "\n", "SPACE", " ", "$..a", "$..a"}, jbulk("{\n\t\"$..a\": [\n\t\t1,\n\t\t2\n\t]\n}")},
			{[]string{"JSON.GET", "missing", "$"}, jNil},
			{[]string{"JSON.SET", "doc", "$..a", "4.2"}, jOK},
			{[]string{"JSON.GET", "doc"}, jbulk(`{"a":4.2,"nested":{"a":4.2,"b":3}}`)},
			{[]string{"JSON.SET", "doc", "$.nested.c", `"new"`}, jOK},
			{[]string{"JSON.SET", "doc", "$.nested.d", `"x"`, "XX"}, jNil},
			{[]string{"JSON.SET", "doc", "$.nested.c", `"y"`, "NX"}, jNil},
			{[]string{"JSON.SET", "doc", "$.no.such", "1"}, jNil},
			{[]string{"JSON.SET", "doc", "$..f", "1"}, "-Err wrong static path\r\n"},
			{[]string{"JSON.SET", "doc", "$.nested[0]", "1"}, "-ERR array index out of range\r\n"},
			{[]string{"JSON.SET", "new", ".a", "1"}, "-ERR new objects must be created at the root\r\n"},
			{[]string{"JSON.SET", "new", "$", "{"}, "-EOF while parsing an object at line 1 column 1\r\n"},
			{[]string{"JSON.SET", "new", "$", "[1 2]"}, "-expected `,` or `]` at line 1 column 4\r\n"},
			{[]string{"JSON.SET", "new", "$", "1", "NX", "XX"}, "-ERR syntax error\r\n"},
			{[]string{"JSON.SET", "new", "$", "1", "FORMAT", "XML"}, "-ERR wrong format\r\n"},
			{[]string{"JSON.SET", "new", "$", "[1,2,3]", "XX"}, jNil},
			{[]string{"JSON.SET", "num", ".", "[1512060373.222988, 1.6350000000001313e+308, 3.0, 1e2]"}, jOK},
			{[]string{"JSON.GET", "num"}, jbulk("[1512060373.222988,1.6350000000001313e308,3.0,100.0]")},
			// DEL: nested matches once, swapped member order, the root.
			{[]string{"JSON.SET", "d2", "$", `{"a": {"a": 2, "b": 3}, "b": ["a", "b"], "nested": {"b":[true, "a","b"]}}`}, jOK},
			{[]string{"JSON.DEL", "d2", "$..a"}, ":1\r\n"},
			{[]string{"JSON.GET", "d2", "$"}, jbulk(`[{"nested":{"b":[true,"a","b"]},"b":["a","b"]}]`)},
			{[]string{"JSON.SET", "d3", "$", `[[1],[1,2,3]]`}, jOK},
			{[]string{"JSON.DEL", "d3", "$..[0]"}, ":2\r\n"},
			{[]string{"JSON.GET", "d3"}, jbulk(`[[2,3]]`)},
			{[]string{"JSON.FORGET", "d3"}, ":1\r\n"},
			{[]string{"EXISTS", "d3"}, ":0\r\n"},
			{[]string{"JSON.DEL", "missing", "..a"}, ":0\r\n"},
			// Numbers keep their kind.
			{[]string{"JSON.SET", "n", "$", `{"a":"b","b":[{"a":2}, {"a":5.0}, {"a":"c"}]}`}, jOK},
			{[]string{"JSON.NUMINCRBY", "n", "$..a", "2"}, jbulk("[null,4,7.0,null]")},
			{[]string{"JSON.NUMINCRBY", "n", "$..a", "2.5"}, jbulk("[null,6.5,9.5,null]")},
			{[]string{"JSON.NUMINCRBY", "n", "$.b[1].a", "2"}, jbulk("[11.5]")},
			{[]string{"JSON.NUMMULTBY", "n", "$.b[1].a", "2"}, jbulk("[23.0]")},
			{[]string{"JSON.NUMINCRBY", "n", ".b[0].a", "3"}, jbulk("9.5")},
			{[]string{"JSON.NUMINCRBY", "n", ".a", "3"}, "-ERR Path '$.a' does not exist or does not contains a number\r\n"},
			{[]string{"JSON.NUMINCRBY", "n", "$.a", `"x"`}, "-bad input number\r\n"},
			{[]string{"JSON.NUMINCRBY", "missing", "$..a", "2"}, "-ERR could not perform this operation on a key that doesn't exist\r\n"},
			{[]string{"JSON.SET", "big", ".", "1.6350000000001313e+308"}, jOK},
			{[]string{"JSON.NUMMULTBY", "big", ".", "2"}, "-ERR result is not a number\r\n"},
			{[]string{"JSON.GET", "big", "."}, jbulk("1.6350000000001313e308")},
			{[]string{"JSON.SET", "p", "$", `{"a":2,"b":5.0}`}, jOK},
			{[]string{"JSON.NUMPOWBY", "p", "$.*", "2"}, jbulk("[4,25.0]")},
			// Strings.
			{[]string{"JSON.SET", "s", "$", `{"a":"foo", "nested1": {"a": "hello"}, "nested2": {"a": 31}}`}, jOK},
			{[]string{"JSON.STRAPPEND", "s", "$..a", `"bar"`}, jints(6, 8, nil)},
			{[]string{"JSON.STRLEN", "s", "$..a"}, jints(6, 8, nil)},
			{[]string{"JSON.STRAPPEND", "s", ".*.a", `"!"`}, ":9\r\n"},
			{[]string{"JSON.STRLEN", "s", ".nested2.a"}, "-WRONGTYPE wrong type of path value - expected string but found integer\r\n"},
			{[]string{"JSON.STRAPPEND", "s", ".nested2.a", `"x"`}, "-ERR Path '$.nested2.a' does not exist or not a string\r\n"},
			{[]string{"JSON.STRLEN", "missing"}, jNil},
			// Arrays.
			{[]string{"JSON.SET", "a", "$", arrs}, jOK},
			{[]string{"JSON.ARRAPPEND", "a", "$..a", `"bar"`, `"racuda"`}, jints(3, 5, nil)},
			{[]string{"JSON.ARRLEN", "a", "$..a"}, jints(3, 5, nil)},
			{[]string{"JSON.SET", "a", "$", arrs}, jOK},
			{[]string{"JSON.ARRAPPEND", "a", "..a", `"bar"`, `"racuda"`}, ":5\r\n"},
			{[]string{"JSON.SET", "a", "$", arrs}, jOK},
			{[]string{"JSON.ARRINSERT", "a", "$..a", "1", `"bar"`, `"racuda"`}, jints(3, 5, nil)},
			{[]string{"JSON.GET", "a", "$.nested1.a"}, jbulk(`[["hello","bar","racuda",null,"world"]]`)},
			{[]string{"JSON.ARRINSERT", "a", ".nested1.a", "-2", `"baz"`}, ":6\r\n"},
			{[]string{"JSON.ARRINSERT", "a", ".nested1.a", "-10", `1`}, "-ERR index out of bounds\r\n"},
			{[]string{"JSON.SET", "a", "$", arrs}, jOK},
			{[]string{"JSON.ARRPOP", "a", "$..a", "1"}, jbulks(`"foo"`, "null", nil)},
			{[]string{"JSON.ARRPOP", "a", "$..a", "-1"}, jbulks(nil, `"world"`, nil)},
			{[]string{"JSON.GET", "a", "$"}, jbulk(`[{"a":[],"nested1":{"a":["hello"]},"nested2":{"a":31}}]`)},
			{[]string{"JSON.ARRPOP", "a", ".a"}, jNil},
			{[]string{"JSON.SET", "a", "$", arrs}, jOK},
			{[]string{"JSON.ARRTRIM", "a", "$..a", "1", "-1"}, jints(0, 2, nil)},
			{[]string{"JSON.GET", "a", "$"}, jbulk(`[{"a":[],"nested1":{"a":[null,"world"]},"nested2":{"a":31}}]`)},
			{[]string{"JSON.ARRLEN", "a", ".nested2.a"}, "-ERR Path '$.nested2.a' does not exist or not an array\r\n"},
			{[]string{"JSON.ARRLEN", "missing", ".a"}, jNil},
			{[]string{"JSON.ARRLEN", "missing", "$.a"}, "-ERR could not perform this operation on a key that doesn't exist\r\n"},
			{[]string{"JSON.SET", "t", ".", `[1,2,3,4,5,6,7,8,9]`}, jOK},
			{[]string{"JSON.ARRPOP", "t"}, jbulk("9")},
			{[]string{"JSON.ARRPOP", "t", ".", "-2"}, jbulk("7")},
			{[]string{"JSON.ARRPOP", "t", ".", "99"}, jbulk("8")},
			{[]string{"JSON.ARRPOP", "t", ".", "-99"}, jbulk("1")},
			{[]string{"JSON.ARRTRIM", "t", ".", "1", "-2"}, ":3\r\n"},
			{[]string{"JSON.GET", "t"}, jbulk("[3,4,5]")},
			{[]string{"JSON.ARRTRIM", "t", ".", "99", "2"}, ":0\r\n"},
			{[]string{"JSON.SET", "i", ".", `{"arr":[0,1,3.0,3,2,1,0,3]}`}, jOK},
			{[]string{"JSON.ARRINDEX", "i", ".arr", "3"}, ":3\r\n"},
			{[]string{"JSON.ARRINDEX", "i", ".arr", "3.0"}, ":2\r\n"},
			{[]string{"JSON.ARRINDEX", "i", ".arr", "0", "1"}, ":6\r\n"},
			{[]string{"JSON.ARRINDEX", "i", ".arr", "0", "5", "-1"}, ":6\r\n"},
			{[]string{"JSON.ARRINDEX", "i", ".arr", "2", "-2", "6"}, ":-1\r\n"},
			{[]string{"JSON.ARRINDEX", "i", "$..arr", "1"}, jints(1)},
			{[]string{"JSON.ARRINDEX", "i", "$", "1"}, jints(nil)},
			{[]string{"JSON.ARRINDEX", "i", ".", "1"}, "-WRONGTYPE wrong type of path value - expected array but found object\r\n"},
			// Objects, types, toggles, clear.
			{[]string{"JSON.SET", "o", "$", `{"nested1": {"a": {"foo": 10, "bar": 20}}, "a":["foo"], "nested2": {"a": {"baz":50}}}`}, jOK},
			{[]string{"JSON.OBJKEYS", "o", "$..a"}, "*3\r\n$-1\r\n" + jbulks("foo", "bar") + jbulks("baz")},
			{[]string{"JSON.OBJKEYS", "o"}, jbulks("nested1", "a", "nested2")},
			{[]string{"JSON.OBJKEYS", "o", ".a"}, "-ERR Path '$.a' does not exist or not an object\r\n"},
			{[]string{"JSON.OBJKEYS", "o", ".nowhere"}, jNil},
			{[]string{"JSON.OBJLEN", "o", "$..a"}, jints(nil, 2, 1)},
			{[]string{"JSON.OBJLEN", "o", ".a"}, "-WRONGTYPE wrong type of path value - expected object but found array\r\n"},
			{[]string{"JSON.TYPE", "o", "$..a"}, jbulks("array", "object", "object")},
			{[]string{"JSON.TYPE", "o", "..a"}, "$5\r\narray\r\n"},
			{[]string{"JSON.TYPE", "o", ".none"}, jNil},
			{[]string{"JSON.TYPE", "missing"}, jNil},
			{[]string{"JSON.SET", "b", "$", `{"a":["foo"], "nested1": {"a": false}, "nested2": {"a": 31}, "nested3": {"a": true}}`}, jOK},
			{[]string{"JSON.TOGGLE", "b", "$..a"}, jints(nil, 1, nil, 0)},
			{[]string{"JSON.TOGGLE", "b", ".nested1.a"}, jbulk("false")},
			{[]string{"JSON.TOGGLE", "b", ".a"}, "-ERR Path '$.a' does not exist or not a bool\r\n"},
			{[]string{"JSON.SET", "c", "$", `{"nested1": {"a": {"foo": 10, "bar": 20}}, "a":["foo"], "nested2": {"a": "claro"}, "nested3": {"a": {"baz":50}}, "n": 4.5}`}, jOK},
			{[]string{"JSON.CLEAR", "c", "$..a"}, ":3\r\n"},
			{[]string{"JSON.CLEAR", "c", "$..a"}, ":0\r\n"},
			{[]string{"JSON.CLEAR", "c", "$.n"}, ":1\r\n"},
			{[]string{"JSON.GET", "c"}, jbulk(`{"nested1":{"a":{}},"a":[],"nested2":{"a":"claro"},"nested3":{"a":{}},"n":0}`)},
			{[]string{"JSON.CLEAR", "missing", "$"}, "-ERR could not perform this operation on a key that doesn't exist\r\n"},
			// MERGE (RFC 7386), MSET, MGET.
			{[]string{"JSON.SET", "m", "$", `{"a":{"b":1,"c":2},"d":3}`}, jOK},
			{[]string{"JSON.MERGE", "m", "$", `{"a":{"b":null,"e":[1]},"d":4}`}, jOK},
			{[]string{"JSON.GET", "m"}, jbulk(`{"a":{"c":2,"e":[1]},"d":4}`)},
			{[]string{"JSON.MERGE", "m", "$.a.c", `{"x":1}`}, jOK},
			{[]string{"JSON.MERGE", "m", "$.f", `5`}, jOK},
			{[]string{"JSON.GET", "m"}, jbulk(`{"a":{"c":{"x":1},"e":[1]},"d":4,"f":5}`)},
			{[]string{"JSON.MSET", "{k}1", "$", `{"a":1}`, "{k}2", "$", `[2]`, "{k}1", "$.b", `"x"`}, jOK},
			{[]string{"JSON.MGET", "{k}1", "{k}2", "{k}3", "$..a"}, jbulks("[1]", "[]", nil)},
			{[]string{"JSON.MGET", "{k}1", "{k}2", ".b"}, jbulks(`"x"`, nil)},
			{[]string{"JSON.MSET", "{k}1", "$", `{"a":1}`, "{k}9", ".x", `1`}, "-ERR new objects must be created at the root\r\n"},
			{[]string{"JSON.MSET", "{k}1", "$"}, "-ERR wrong number of arguments for 'json.mset' command\r\n"},
			// RESP, DEBUG MEMORY.
			{[]string{"JSON.SET", "r", "$", `{"a":[1,2.5,"s",true,null,{"b":false}]}`}, jOK},
			{[]string{"JSON.RESP", "r", ".a"}, "*7\r\n+[\r\n:1\r\n$3\r\n2.5\r\n$1\r\ns\r\n+true\r\n$-1\r\n*3\r\n+{\r\n$1\r\nb\r\n+false\r\n"},
			{[]string{"JSON.SET", "mem", "$", `{"nested1":{"a":{}},"nested2":{"a":[]},"nested3":{"a":"str"},"nested4":{"a":42},"nested5":{"a":1.2},"nested6":{"a":false},"nested7":{"a":null}}`}, jOK},
			{[]string{"JSON.DEBUG", "MEMORY", "mem", "$..a"}, jints(8, 8, 11, 8, 24, 8, 8)},
			{[]string{"JSON.DEBUG", "MEMORY", "missing"}, ":0\r\n"},
			{[]string{"JSON.DEBUG", "NOPE"}, "-ERR unknown subcommand - try `JSON.DEBUG HELP`\r\n"},
			// Types among the others.
			{[]string{"TYPE", "doc"}, "+ReJSON-RL\r\n"},
			{[]string{"OBJECT", "ENCODING", "doc"}, jbulk("raw")},
			{[]string{"SET", "str", "v"}, jOK},
			{[]string{"JSON.GET", "str"}, "-Existing key has wrong Redis type\r\n"},
			{[]string{"JSON.SET", "str", "$", "1"}, "-Existing key has wrong Redis type\r\n"},
			{[]string{"JSON.MGET", "str", "doc", "$.a"}, jbulks(nil, "[4.2]")},
			{[]string{"GET", "doc"}, "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"},
			{[]string{"JSON.GET", "doc", "$.a["}, "-Error occurred on position 4, \"$.a[ ---->>>> \", path error.\r\n"},
		})
	})
}

// TestJSONRESP3: replies whose shape RESP3 changes.
func TestJSONRESP3(t *testing.T) {
	forEachDriver(t, func(t *testing.T, addr string) {
		c := dialRaw(t, addr)
		c.do("HELLO", "3")
		for _, tc := range []jsonCase{
			{[]string{"JSON.SET", "k", "$", `{"a":[1,2.5,"s",true,null,{"b":false}],"n":2}`}, jOK},
			{[]string{"JSON.GET", "k", "$.n"}, jbulk("[2]")},
			{[]string{"JSON.GET", "k", "FORMAT", "EXPAND", "$.a"}, "*1\r\n*1\r\n*6\r\n:1\r\n,2.5\r\n$1\r\ns\r\n#t\r\n_\r\n%1\r\n$1\r\nb\r\n#f\r\n"},
			{[]string{"JSON.GET", "k", "FORMAT", "EXPAND1", "$.a[5]", "$.n"}, "*2\r\n*1\r\n$11\r\n{\"b\":false}\r\n*1\r\n:2\r\n"},
			{[]string{"JSON.TYPE", "k", "$.a"}, "*1\r\n*1\r\n$5\r\narray\r\n"},
			{[]string{"JSON.TYPE", "k"}, "*1\r\n$6\r\nobject\r\n"},
			{[]string{"JSON.NUMINCRBY", "k", "$..*", "1"}, "*9\r\n_\r\n:3\r\n:2\r\n,3.5\r\n_\r\n_\r\n_\r\n_\r\n_\r\n"},
			{[]string{"JSON.ARRPOP", "k", "FORMAT", "EXPAND", "$.a"}, "*1\r\n%1\r\n$1\r\nb\r\n#f\r\n"},
			{[]string{"JSON.GET", "missing"}, "_\r\n"},
		} {
			if got := c.do(tc.cmd...); got != tc.want {
				t.Errorf("%q: %q, want %q", tc.cmd, got, tc.want)
			}
		}
		r2 := dialRaw(t, addr)
		if got := r2.do("JSON.GET", "k", "FORMAT", "EXPAND", "$"); got != "-ERR FORMAT argument is not supported on RESP2\r\n" {
			t.Errorf("FORMAT on RESP2: %q", got)
		}
	})
}

// TestJSONAsAKey: through go-redis, a document survives DUMP/RESTORE,
// RENAME and COPY, and JSON commands run in MULTI and scripts; a
// document of 10,000 members round-trips whole.
func TestJSONAsAKey(t *testing.T) {
	forEachDriverClient(t, 2, func(t *testing.T, ctx context.Context, c *redis.Client, addr string) {
		var b strings.Builder
		b.WriteString(`{"list":[`)
		for i := range 10_000 {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"id":%d,"name":"item-%d","tags":["x","y"],"price":%d.5}`, i, i, i%100)
		}
		b.WriteString(`]}`)
		big := b.String()
		must(t, c.JSONSet(ctx, "d", "$", big).Err())
		got, err := c.JSONGet(ctx, "d").Result()
		must(t, err)
		if got != big {
			t.Fatalf("document of %d bytes came back as %d bytes", len(big), len(got))
		}
		n, err := c.Do(ctx, "JSON.GET", "d", "$.list[?(@.price > 99)].id").Text()
		must(t, err)
		if strings.Count(n, ",")+1 != 100 {
			t.Fatalf("filter matched %s", n[:min(len(n), 80)])
		}
		payload, err := c.Dump(ctx, "d").Result()
		must(t, err)
		must(t, c.Restore(ctx, "r", 0, payload).Err())
		must(t, c.Rename(ctx, "r", "renamed").Err())
		must(t, c.Copy(ctx, "renamed", "copied", 0, false).Err())
		for _, k := range []string{"renamed", "copied"} {
			if got, _ := c.JSONGet(ctx, k).Result(); got != big {
				t.Fatalf("%s: not the document", k)
			}
		}
		// Of 70,001 nested matches only the outermost is deleted.
		if n, err := c.JSONDel(ctx, "copied", "$..*").Result(); err != nil || n != 1 {
			t.Fatalf("JSON.DEL $..*: %d %v", n, err)
		}
		if got, _ := c.JSONGet(ctx, "copied").Result(); got != "{}" {
			t.Fatalf("after JSON.DEL $..*: %.40q", got)
		}
		must(t, c.JSONSet(ctx, "small", "$", `{"n":1}`).Err())
		tx := c.TxPipeline()
		tx.JSONNumIncrBy(ctx, "small", "$.n", 2)
		g := tx.JSONGet(ctx, "small", "$.n")
		_, err = tx.Exec(ctx)
		must(t, err)
		if g.Val() != "[3]" {
			t.Fatalf("JSON.GET in MULTI: %q", g.Val())
		}
		res, err := c.Eval(ctx, "redis.call('JSON.SET', KEYS[1], '$.s', '\"hi\"'); return redis.call('JSON.GET', KEYS[1])", []string{"small"}).Result()
		if err != nil || res != `{"n":3,"s":"hi"}` {
			t.Fatalf("script: %v %v", res, err)
		}
		if typ, _ := c.Type(ctx, "small").Result(); typ != "ReJSON-RL" {
			t.Fatalf("TYPE %q", typ)
		}
	})
}

// TestRedis8TypesAsKeys: JSON documents and t-digests are keys like any
// other: SCAN TYPE finds them by their type names, EXPIRE, MOVE and
// UNLINK act on them whole, and the keyspace events name them.
func TestRedis8TypesAsKeys(t *testing.T) {
	forEachDriverClient(t, 2, func(t *testing.T, ctx context.Context, c *redis.Client, addr string) {
		must(t, c.JSONSet(ctx, "j1", "$", `{"a":1}`).Err())
		must(t, c.JSONSet(ctx, "j2", "$", `[1]`).Err())
		must(t, c.TDigestCreate(ctx, "t1").Err())
		must(t, c.Set(ctx, "s1", "x", 0).Err())
		for typ, want := range map[string]int{"ReJSON-RL": 2, "TDIS-TYPE": 1, "rejson-rl": 2} {
			keys, _, err := c.ScanType(ctx, 0, "*", 100, typ).Result()
			must(t, err)
			if len(keys) != want {
				t.Fatalf("SCAN TYPE %s: %v", typ, keys)
			}
		}
		must(t, c.Expire(ctx, "j1", time.Hour).Err())
		if ttl := c.TTL(ctx, "j1").Val(); ttl <= 0 {
			t.Fatalf("TTL of a document: %v", ttl)
		}
		// JSON.SET of a path keeps the TTL; of the root too (the key stays).
		must(t, c.JSONSet(ctx, "j1", "$.b", `2`).Err())
		if ttl := c.TTL(ctx, "j1").Val(); ttl <= 0 {
			t.Fatalf("TTL after JSON.SET: %v", ttl)
		}
		if ok, err := c.Move(ctx, "t1", 1).Result(); err != nil || !ok {
			t.Fatalf("MOVE: %v %v", ok, err)
		}
		c1 := newClient(t, addr, 2)
		must(t, c1.Do(ctx, "SELECT", 1).Err())
		if typ, _ := c1.Type(ctx, "t1").Result(); typ != "TDIS-TYPE" {
			t.Fatalf("moved t-digest: TYPE %q", typ)
		}
		if n, _ := c.Unlink(ctx, "j2").Result(); n != 1 {
			t.Fatalf("UNLINK: %d", n)
		}
		if _, err := c.Do(ctx, "JSON.GET", "j2").Result(); err != redis.Nil {
			t.Fatalf("JSON.GET after UNLINK: %v", err)
		}
	})
}

// TestJSONTooLarge: a document over rjson.MaxText, or nested deeper than
// 128 levels, is refused with a clear error, as a value and as the
// result of an edit, and nothing of it is stored; the connection goes
// on.
func TestJSONTooLarge(t *testing.T) {
	c := dialRaw(t, startNode(t, "badger", nil).Addr())
	big := `"` + strings.Repeat("x", 32<<20) + `"`
	if got := c.do("JSON.SET", "d", "$", big); got != "-ERR JSON document too large (over 32 MiB)\r\n" {
		t.Fatalf("JSON.SET of 32 MiB: %q", got)
	}
	half := `"` + strings.Repeat("y", 17<<20) + `"`
	if got := c.do("JSON.SET", "d", "$", `{"a":`+half+`}`); got != jOK {
		t.Fatalf("JSON.SET of 17 MiB: %.80q", got)
	}
	if got := c.do("JSON.SET", "d", "$.b", half); got != "-ERR JSON document too large (over 32 MiB)\r\n" {
		t.Fatalf("growing past 32 MiB: %.80q", got)
	}
	if got := c.do("JSON.OBJLEN", "d"); got != ":1\r\n" {
		t.Fatalf("after the refused edit: %q", got)
	}
	// Nesting: 128 levels at most, in a value and after an edit.
	deep := strings.Repeat("[", 100) + strings.Repeat("]", 100)
	if got := c.do("JSON.SET", "deep", "$", deep); got != jOK {
		t.Fatalf("100 levels: %q", got)
	}
	if got := c.do("JSON.SET", "deep", "$"+strings.Repeat("[0]", 99), deep); got != "-ERR recursion limit exceeded\r\n" {
		t.Fatalf("nesting 199 levels by an edit: %q", got)
	}
	if got := c.do("JSON.SET", "deep", "$", "["+deep+"]"); got != jOK {
		t.Fatalf("101 levels: %q", got)
	}
	// JSON.MSET sets all its documents or none.
	if got := c.do("JSON.MSET", "first", "$", `[1]`, "d", "$.b", half); got != "-ERR JSON document too large (over 32 MiB)\r\n" {
		t.Fatalf("JSON.MSET growing past 32 MiB: %.80q", got)
	}
	if got := c.do("EXISTS", "first"); got != ":0\r\n" {
		t.Fatalf("JSON.MSET refused but set its first key: %q", got)
	}
	if got := c.do("PING"); got != "+PONG\r\n" {
		t.Fatalf("PING: %q", got)
	}
}
