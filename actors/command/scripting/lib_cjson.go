package scripting

import (
	"math"
	"sort"
	"strconv"

	lua "github.com/yuin/gopher-lua"
)

// The cjson library (lua-cjson, as Redis ships it): cjson.encode,
// cjson.decode and cjson.null, with lua-cjson's defaults: numbers with 14
// significant digits, '/' escaped, empty tables as {}, arrays from tables
// whose keys are all positive integers (holes as null; excessively sparse
// ones refused).

func openCJSON(L *lua.LState, v *vm, null lua.LValue) *lua.LTable {
	t := L.NewTable()
	t.RawSetString("null", null)
	t.RawSetString("encode", L.NewFunction(func(L *lua.LState) int {
		e := &jsonEncoder{L: L, null: null, out: outBound{L: L, v: v}}
		b := e.encode(nil, L.CheckAny(1), 0)
		v.reserve(L, len(b)) // the Lua string is a copy
		L.Push(lua.LString(b))
		return 1
	}))
	t.RawSetString("decode", L.NewFunction(func(L *lua.LState) int {
		d := &jsonDecoder{L: L, s: L.CheckString(1), null: null}
		d.skip()
		v := d.value()
		d.skip()
		if d.pos < len(d.s) {
			d.fail("the end")
		}
		L.Push(v)
		return 1
	}))
	for _, name := range []string{"encode_max_depth", "decode_max_depth", "encode_number_precision",
		"encode_sparse_array", "encode_invalid_numbers", "decode_invalid_numbers", "encode_keep_buffer"} {
		t.RawSetString(name, L.NewFunction(func(*lua.LState) int { return 0 }))
	}
	return t
}

// jsonEncoder is one cjson.encode: its output is bounded by the script's
// memory bound (reserve), checked each time it may grow by reserveFree.
type jsonEncoder struct {
	L    *lua.LState
	null lua.LValue
	out  outBound
}

func (e *jsonEncoder) encode(b []byte, v lua.LValue, depth int) []byte {
	L := e.L
	if depth > 1000 {
		L.RaiseError("Cannot serialise, excessive nesting (1001)")
	}
	switch x := v.(type) {
	case lua.LBool:
		if x {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case lua.LNumber:
		f := float64(x)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			L.RaiseError("Cannot serialise number: must not be NaN or Inf")
		}
		return strconv.AppendFloat(b, f, 'g', 14, 64)
	case lua.LString:
		e.out.grow(len(b) + 6*len(x)) // "\u00XX" for a control byte
		return jsonString(b, string(x))
	case *lua.LTable:
		return e.table(b, x, depth)
	}
	if v == e.null || v == lua.LNil {
		return append(b, "null"...)
	}
	L.RaiseError("Cannot serialise %s: type not supported", v.Type().String())
	return b
}

func (e *jsonEncoder) table(b []byte, t *lua.LTable, depth int) []byte {
	L := e.L
	maxIdx, count, isArray := 0, 0, true
	t.ForEach(func(k, _ lua.LValue) {
		count++
		n, ok := k.(lua.LNumber)
		if !ok || float64(n) != math.Floor(float64(n)) || n < 1 {
			isArray = false
			return
		}
		maxIdx = max(maxIdx, int(n))
	})
	if isArray && count > 0 {
		if maxIdx > 10 && maxIdx > 2*count {
			L.RaiseError("Cannot serialise table: excessively sparse array")
		}
		b = append(b, '[')
		for i := 1; i <= maxIdx; i++ {
			if i > 1 {
				b = append(b, ',')
			}
			b = e.encode(b, t.RawGetInt(i), depth+1)
		}
		return append(b, ']')
	}
	type kv struct {
		k string
		v lua.LValue
	}
	var pairs []kv
	t.ForEach(func(k, v lua.LValue) {
		switch k.(type) {
		case lua.LString, lua.LNumber:
			pairs = append(pairs, kv{k.String(), v})
		default:
			L.RaiseError("Cannot serialise %s: table key must be a number or string", k.Type().String())
		}
	})
	sort.Slice(pairs, func(i, j int) bool { return pairs[i].k < pairs[j].k })
	b = append(b, '{')
	for i, p := range pairs {
		if i > 0 {
			b = append(b, ',')
		}
		e.out.grow(len(b) + 6*len(p.k))
		b = jsonString(b, p.k)
		b = append(b, ':')
		b = e.encode(b, p.v, depth+1)
	}
	return append(b, '}')
}

func jsonString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\', '/':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		default:
			if c < 0x20 || c == 0x7f {
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
			} else {
				b = append(b, c)
			}
		}
	}
	return append(b, '"')
}

type jsonDecoder struct {
	L    *lua.LState
	s    string
	pos  int
	null lua.LValue
	// depth counts the arrays and objects open, bounded as Redis's
	// cjson's decode_max_depth (1000) bounds them.
	depth int
}

// jsonMaxDepth is Redis's cjson decode_max_depth default.
const jsonMaxDepth = 1000

// nest enters an array or object, failing as Redis's cjson does past
// jsonMaxDepth; the caller leaves with d.depth--.
func (d *jsonDecoder) nest() {
	d.depth++
	if d.depth > jsonMaxDepth {
		d.L.RaiseError("Found too many nested data structures (%d) at character %d", d.depth, d.pos+1)
	}
}

func (d *jsonDecoder) fail(what string) {
	token := "invalid token"
	if d.pos >= len(d.s) {
		token = "T_END"
	}
	d.L.RaiseError("Expected %s but found %s at character %d", what, token, d.pos+1)
}

func (d *jsonDecoder) skip() {
	for d.pos < len(d.s) && (d.s[d.pos] == ' ' || d.s[d.pos] == '\t' || d.s[d.pos] == '\n' || d.s[d.pos] == '\r') {
		d.pos++
	}
}

func (d *jsonDecoder) lit(word string, v lua.LValue) lua.LValue {
	if len(d.s)-d.pos >= len(word) && d.s[d.pos:d.pos+len(word)] == word {
		d.pos += len(word)
		return v
	}
	d.fail("value")
	return nil
}

func (d *jsonDecoder) value() lua.LValue {
	if d.pos >= len(d.s) {
		d.fail("value")
	}
	switch c := d.s[d.pos]; {
	case c == '{':
		return d.object()
	case c == '[':
		return d.array()
	case c == '"':
		return lua.LString(d.str())
	case c == 't':
		return d.lit("true", lua.LTrue)
	case c == 'f':
		return d.lit("false", lua.LFalse)
	case c == 'n':
		return d.lit("null", d.null)
	case c == '-' || c >= '0' && c <= '9':
		start := d.pos
		for d.pos < len(d.s) && (d.s[d.pos] >= '0' && d.s[d.pos] <= '9' || d.s[d.pos] == '-' ||
			d.s[d.pos] == '+' || d.s[d.pos] == '.' || d.s[d.pos] == 'e' || d.s[d.pos] == 'E') {
			d.pos++
		}
		f, err := strconv.ParseFloat(d.s[start:d.pos], 64)
		if err != nil {
			d.pos = start
			d.fail("value")
		}
		return lua.LNumber(f)
	}
	d.fail("value")
	return nil
}

func (d *jsonDecoder) object() lua.LValue {
	d.nest()
	defer func() { d.depth-- }()
	t := d.L.NewTable()
	d.pos++
	d.skip()
	if d.pos < len(d.s) && d.s[d.pos] == '}' {
		d.pos++
		return t
	}
	for {
		d.skip()
		if d.pos >= len(d.s) || d.s[d.pos] != '"' {
			d.fail("object key string")
		}
		k := d.str()
		d.skip()
		if d.pos >= len(d.s) || d.s[d.pos] != ':' {
			d.fail("colon")
		}
		d.pos++
		d.skip()
		t.RawSetString(k, d.value())
		d.skip()
		if d.pos < len(d.s) && d.s[d.pos] == ',' {
			d.pos++
			continue
		}
		if d.pos < len(d.s) && d.s[d.pos] == '}' {
			d.pos++
			return t
		}
		d.fail("comma or object end")
	}
}

func (d *jsonDecoder) array() lua.LValue {
	d.nest()
	defer func() { d.depth-- }()
	t := d.L.NewTable()
	d.pos++
	d.skip()
	if d.pos < len(d.s) && d.s[d.pos] == ']' {
		d.pos++
		return t
	}
	for i := 1; ; i++ {
		d.skip()
		t.RawSetInt(i, d.value())
		d.skip()
		if d.pos < len(d.s) && d.s[d.pos] == ',' {
			d.pos++
			continue
		}
		if d.pos < len(d.s) && d.s[d.pos] == ']' {
			d.pos++
			return t
		}
		d.fail("comma or array end")
	}
}

func (d *jsonDecoder) str() string {
	d.pos++ // opening quote
	var out []byte
	for d.pos < len(d.s) {
		c := d.s[d.pos]
		d.pos++
		switch {
		case c == '"':
			return string(out)
		case c == '\\' && d.pos < len(d.s):
			e := d.s[d.pos]
			d.pos++
			switch e {
			case 'n':
				out = append(out, '\n')
			case 't':
				out = append(out, '\t')
			case 'r':
				out = append(out, '\r')
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'u':
				if d.pos+4 > len(d.s) {
					d.fail("unicode escape")
				}
				n, err := strconv.ParseUint(d.s[d.pos:d.pos+4], 16, 32)
				if err != nil {
					d.fail("unicode escape")
				}
				d.pos += 4
				out = append(out, string(rune(n))...)
			default:
				out = append(out, e)
			}
		default:
			out = append(out, c)
		}
	}
	d.fail("string end")
	return ""
}
