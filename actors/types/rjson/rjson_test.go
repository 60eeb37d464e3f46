package rjson

import (
	"strings"
	"testing"
)

func mustParse(t testing.TB, s string) *Value {
	t.Helper()
	v, err := Parse(s)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return v
}

// serde_json's error texts and positions, which RedisJSON replies with.
func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "EOF while parsing a value at line 1 column 0"},
		{"{", "EOF while parsing an object at line 1 column 1"},
		{"[1,", "EOF while parsing a value at line 1 column 3"},
		{"}", "expected value at line 1 column 1"},
		{"[1 2]", "expected `,` or `]` at line 1 column 4"},
		{"{1:2}", "key must be a string at line 1 column 2"},
		{`{"a" 1}`, "expected `:` at line 1 column 6"},
		{"[1,]", "trailing comma at line 1 column 4"},
		{"1 2", "trailing characters at line 1 column 3"},
		{"trux", "expected ident at line 1 column 4"},
		{"01", "invalid number at line 1 column 2"},
		{"[\n1,\n]", "trailing comma at line 3 column 1"},
		{`"a` + "\x01" + `"`, "control character (\\u0000-\\u001F) found while parsing a string at line 1 column 3"},
		{"1e400", "number out of range at line 1 column 5"},
		{strings.Repeat("[", 129) + strings.Repeat("]", 129), "recursion limit exceeded at line 1 column 129"},
	} {
		_, err := Parse(c.in)
		if err == nil || err.Error() != c.want {
			t.Errorf("Parse(%q) = %v, want %q", c.in, err, c.want)
		}
	}
	if _, err := Parse(strings.Repeat("[", 128) + strings.Repeat("]", 128)); err != nil {
		t.Errorf("128 levels: %v", err)
	}
}

// Output as serde_json writes it: number kinds kept, ryu's floats,
// escapes, and the document's member order.
func TestRoundTrip(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"b":1,"a":[1.0,2.5,-0.0,3]}`, `{"b":1,"a":[1.0,2.5,-0.0,3]}`},
		{`1e300`, `1e300`},
		{`1.6350000000001313e+308`, `1.6350000000001313e308`},
		{`1512060373.222988`, `1512060373.222988`},
		{`0.00001`, `0.00001`},
		{`0.000001`, `1e-6`},
		{`0.0001234`, `0.0001234`},
		{`1e16`, `1e16`},
		{`1e15`, `1000000000000000.0`},
		{`123456789012345678901`, `1.2345678901234568e20`},
		{`18446744073709551615`, `18446744073709551615`},
		{`-9223372036854775808`, `-9223372036854775808`},
		{`"a\"b\\c\/d\u0001\n\u00e9\ud83d\ude00"`, "\"a\\\"b\\\\c/d\\u0001\\n\u00e9\U0001F600\""},
		{`{"a":1,"a":2}`, `{"a":2}`},
	} {
		if got := Marshal(mustParse(t, c.in)); got != c.want {
			t.Errorf("%s: %s, want %s", c.in, got, c.want)
		}
	}
}

// RedisJSON's formatter (tests/pytest/test.py testGetFormatting).
func TestFormat(t *testing.T) {
	v := mustParse(t, `{"obj":{"f":"v"},"arr":[0,1],"e":[]}`)
	got := string(Append(nil, v, Format{Indent: "\t", Newline: "\n", Space: " ", Set: true}))
	want := "{\n\t\"obj\": {\n\t\t\"f\": \"v\"\n\t},\n\t\"arr\": [\n\t\t0,\n\t\t1\n\t],\n\t\"e\": []\n}"
	if got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func evalJSON(t *testing.T, doc, path string) string {
	t.Helper()
	q, err := Compile(path)
	if err != nil {
		t.Fatalf("Compile(%q): %v", path, err)
	}
	return Marshal(NewArray(q.Values(mustParse(t, doc))))
}

// Results and their order as RedisJSON's own tests expect them.
func TestEval(t *testing.T) {
	clear := `{"n":42,"s":"42","arr":[{"n":44},"s",{"n":{"a":1,"b":2}},{"n2":{"x":3.02,"n":["to","be","cleared",4],"y":4.91}},null]}`
	store := `{"store":{"book":[{"category":"reference","price":8.95,"size":[10,20,30,40]},{"category":"fiction","price":12.99,"size":[50,60,70,80]},{"category":"fiction","isbn":"0-553-21311-3","price":8.99,"size":[5,10,20,30]}],"bicycle":{"color":"red","price":19.95}}}`
	for _, c := range []struct{ doc, path, want string }{
		{clear, `$..n`, `[42,44,{"a":1,"b":2},["to","be","cleared",4]]`},
		{clear, `$.arr[2].n`, `[{"a":1,"b":2}]`},
		{clear, `$.arr.*`, `[{"n":44},"s",{"n":{"a":1,"b":2}},{"n2":{"x":3.02,"n":["to","be","cleared",4],"y":4.91}},null]`},
		{`[1,2,3]`, `$[*]`, `[1,2,3]`},
		{`[1,2,3]`, `$.[1]`, `[2]`},
		{`[1,2,3]`, `$[-1]`, `[3]`},
		{`[1,2,3]`, `$[-99]`, `[1]`},
		{`[1,2,3]`, `$[5]`, `[]`},
		{`[1,2,3,4,5]`, `$[1:4:2]`, `[2,4]`},
		{`[1,2,3,4,5]`, `$[:2]`, `[1,2]`},
		{`[1,2,3,4,5]`, `$[-2:]`, `[4,5]`},
		{`{"a":[1,2,3],"b":["c","d","e"],"c":"k"}`, `$.*[0,2]`, `[1,3,"c","e"]`},
		{`{"a":1,"b":2,"c":3}`, `$['c', "a"]`, `[3,1]`},
		{store, `$.store.book[?(@.price<10)].size`, `[[10,20,30,40],[5,10,20,30]]`},
		{store, `$..book[?(@.category == "fiction" && @.price > 10 || @.isbn)].price`, `[12.99,8.99]`},
		{store, `$..book[?(@.category =~ "^fic")].price`, `[12.99,8.99]`},
		{store, `$..[?(@.price > 19)].color`, `["red"]`},
		{store, `$.store.book[?(@.isbn)].price`, `[8.99]`},
		{store, `$.store.book[?(@.price > $.store.bicycle.price)]`, `[]`},
		{`[{"a":null},{"a":1}]`, `$[?(@.a == null)]`, `[{"a":null}]`},
		{`{"a":{"x":{"i":10}},"b":{"x":{"i":20,"j":5}}}`, `$..x[?($.i>10)]`, `[]`},
		{`{"a":{"a":2,"b":3},"b":["a","b"]}`, `$..a`, `[{"a":2,"b":3},2]`},
		{`{"f.]$.f":1}`, `$["f.]$.f"]`, `[1]`},
	} {
		if got := evalJSON(t, c.doc, c.path); got != c.want {
			t.Errorf("%s on %.40s: %s, want %s", c.path, c.doc, got, c.want)
		}
	}
	for _, bad := range []string{"$.", "$[", "$.a[", "$[?(@.a >)]", "$..", "$['a]", "$[1:2:0]"} {
		if _, err := Compile(bad); err == nil {
			t.Errorf("Compile(%q) succeeded", bad)
		}
	}
}

// JSON.DEL deletes the outermost of nested matches, deepest and highest
// index first; an object member's removal moves the last member into
// its place (test_multi.py testDelCommand).
func TestDeleteOrder(t *testing.T) {
	for _, c := range []struct{ doc, path, want string }{
		{`{"a":{"a":2,"b":3},"b":["a","b"],"nested":{"b":[true,"a","b"]}}`, `$..a`, `{"nested":{"b":[true,"a","b"]},"b":["a","b"]}`},
		{`[[1],[1,2,3]]`, `$..[0]`, `[[2,3]]`},
		{`[1,2,3]`, `$[2,1,0]`, `[]`},
		{`{"a":[[1],[1,2,3,[4,5,[{"a":6},7,8]]],[10,{"11":11}],["12","13"]],"b":[[1,2],{"a":[3,4,5]}]}`, `$..[0]`, `{"a":[[2,3,[5,[7,8]]],[{"11":11}],["13"]],"b":[{"a":[4,5]}]}`},
	} {
		root := mustParse(t, c.doc)
		q, _ := Compile(c.path)
		for _, m := range Outermost(q.Eval(root)) {
			if !Delete(root, m.Path) {
				t.Fatalf("%s: %v gone", c.path, m.Path)
			}
		}
		if got := Marshal(root); got != c.want {
			t.Errorf("DEL %s on %s: %s, want %s", c.path, c.doc, got, c.want)
		}
	}
}

func TestMerge(t *testing.T) {
	v := Merge(mustParse(t, `{"a":"b","c":{"d":"e","f":"g"}}`), mustParse(t, `{"a":"z","c":{"f":null},"n":[1]}`))
	if got := Marshal(v); got != `{"a":"z","c":{"d":"e"},"n":[1]}` {
		t.Errorf("merge: %s", got)
	}
}

// RedisJSON's own memory test (ivalue_manager.rs test_get_memory).
func TestMemory(t *testing.T) {
	doc := `{"a":100.12,"b":"foo","c":true,"d":126,"e":-112,"f":7388608,"g":-6388608,"h":9388608,"i":-9485608,"j":[],"k":{},"l":[1,"asas",{"a":1}],"m":{"t":"f"}}`
	if got := Memory(mustParse(t, doc)); got != 903 {
		t.Errorf("memory %d, want 903", got)
	}
	for in, want := range map[string]int64{"null": 8, "1.0": 24, `"string"`: 14, "[1]": 64, "[1, 2]": 72, `[1, "string", {}]`: 86} {
		if got := Memory(mustParse(t, in)); got != want {
			t.Errorf("memory of %s: %d, want %d", in, got, want)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5,"x",null,true]}`, `[`, `"\ud800"`, `1e5`, `-0`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := Parse(s)
		if err != nil {
			return
		}
		text := Marshal(v)
		w, err := Parse(text)
		if err != nil {
			t.Fatalf("output %q of %q does not parse: %v", text, s, err)
		}
		if Marshal(w) != text || !Equal(v, w) {
			t.Fatalf("%q: round trip %q differs", s, Marshal(w))
		}
	})
}

func FuzzPath(f *testing.F) {
	for _, s := range []string{`$..a[?(@.b>1 && @.c=="x" || !@.d)]`, `$.a[1:2:3]`, `$['x',"y"]`, `$[-1,0]`} {
		f.Add(s)
	}
	doc := mustParse(f, `{"a":[{"b":2,"c":"x"},{"b":0}],"x":{"y":[1,2,3]},"y":null}`)
	f.Fuzz(func(t *testing.T, s string) {
		q, err := Compile(s)
		if err != nil {
			return
		}
		for _, m := range q.Eval(doc) {
			if At(doc, m.Path) != m.V {
				t.Fatalf("%q: path %v does not lead to its value", s, m.Path)
			}
		}
	})
}

// FuzzEdit applies a path's matches as the write commands do (replace,
// delete the outermost, merge, clear) to a document: nothing panics, and
// what is left encodes and parses back as itself.
func FuzzEdit(f *testing.F) {
	for _, c := range [][3]string{
		{`{"a":[1,{"b":[2,3]}],"c":{"a":null}}`, `$..a`, `{"x":null}`},
		{`[[1],[1,2,3,[4]]]`, `$..[0]`, `7`},
		{`[1,2,3,4,5,6]`, `$[0:6:9223372036854775807]`, `[]`},
		{`{"a":{"a":{"a":1}}}`, `$..*`, `"s"`},
	} {
		f.Add(c[0], c[1], c[2])
	}
	f.Fuzz(func(t *testing.T, doc, path, val string) {
		root, err := Parse(doc)
		if err != nil {
			return
		}
		q, err := Compile(path)
		if err != nil {
			return
		}
		v, err := Parse(val)
		if err != nil {
			return
		}
		for op := range 4 {
			r := root.Clone()
			ms := q.Eval(r)
			switch op {
			case 0:
				for _, m := range ms {
					if len(m.Path) > 0 {
						Replace(r, m.Path, v.Clone())
					}
				}
			case 1:
				for _, m := range Outermost(ms) {
					if len(m.Path) > 0 && !Delete(r, m.Path) {
						t.Fatalf("%s on %s: %v already gone", path, doc, m.Path)
					}
				}
			case 2:
				for _, m := range ms {
					if len(m.Path) > 0 {
						Replace(r, m.Path, Merge(m.V, v))
					}
				}
			case 3:
				for _, m := range ms {
					if x := At(r, m.Path); x != nil {
						Clear(x)
					}
				}
			}
			text := Marshal(r)
			back, err := ParseStored(text)
			if err != nil || !Equal(back, r) {
				t.Fatalf("op %d: %q does not read back: %v", op, text, err)
			}
			_ = Memory(r)
		}
	})
}
