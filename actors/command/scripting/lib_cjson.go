package scripting

import (
	"errors"
	"math"
	"sort"
	"strconv"
	"strings"

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
		cjsonOneArg(L)
		e := &jsonEncoder{L: L, null: null, out: outBound{L: L, v: v}, opt: v.cjsonOptions().snapshot()}
		b := e.encode(nil, L.CheckAny(1), 0)
		v.reserve(L, len(b)) // the Lua string is a copy
		L.Push(lua.LString(b))
		return 1
	}))
	t.RawSetString("decode", L.NewFunction(func(L *lua.LState) int {
		cjsonOneArg(L)
		d := &jsonDecoder{L: L, s: L.CheckString(1), null: null, opt: v.cjsonOptions().snapshot(), out: outBound{L: L, v: v}}
		d.skip()
		v := d.value()
		d.skip()
		if d.pos < len(d.s) {
			d.fail("the end")
		}
		L.Push(v)
		return 1
	}))
	openCJSONOptions(L, v, t)
	return t
}

// jsonEncoder is one cjson.encode: its output is bounded by the script's
// memory bound (reserve), checked each time it may grow by reserveFree.
type jsonEncoder struct {
	L    *lua.LState
	null lua.LValue
	out  outBound
	opt  cjsonSettings
}

func (e *jsonEncoder) encode(b []byte, v lua.LValue, depth int) []byte {
	L := e.L
	if depth >= e.opt.encodeMaxDepth && isTable(v) {
		L.RaiseError("Cannot serialise, excessive nesting (%d)", depth+1)
	}
	// Every value is counted, not only strings: a table shared at every
	// level repeats its numbers 2^depth times, and the watchdog cannot
	// stop a Go function.
	e.out.grow(len(b) + 32)
	switch x := v.(type) {
	case lua.LBool:
		if x {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case lua.LNumber:
		f := float64(x)
		switch {
		case !math.IsNaN(f) && !math.IsInf(f, 0):
		case e.opt.encodeInvalid == 0:
			L.RaiseError("Cannot serialise number: must not be NaN or Inf")
		case e.opt.encodeInvalid == 2:
			return append(b, "null"...)
		case math.IsNaN(f):
			return append(b, "nan"...)
		case f > 0:
			return append(b, "inf"...)
		default:
			return append(b, "-inf"...)
		}
		return strconv.AppendFloat(b, f, 'g', e.opt.precision, 64)
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
	eachPair(t, func(k, _ lua.LValue) {
		count++
		n, ok := k.(lua.LNumber)
		if !ok || float64(n) != math.Floor(float64(n)) || n < 1 {
			isArray = false
			return
		}
		maxIdx = max(maxIdx, int(n))
	})
	if isArray && count > 0 {
		if e.opt.sparseRatio > 0 && maxIdx > count*e.opt.sparseRatio && maxIdx > e.opt.sparseSafe {
			if !e.opt.sparseConvert {
				L.RaiseError("Cannot serialise table: excessively sparse array")
			}
			isArray = false // encoded as an object with the indexes as keys
		}
	}
	if isArray && count > 0 {
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
	eachPair(t, func(k, v lua.LValue) {
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

func isTable(v lua.LValue) bool {
	_, ok := v.(*lua.LTable)
	return ok
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
	opt  cjsonSettings
	// depth counts the arrays and objects open, bounded as Redis's
	// cjson's decode_max_depth (1000) bounds them.
	depth int
	// out counts the values made against the script's memory bound: "[],"
	// makes a table of 3 bytes, and the watchdog cannot stop a Go function.
	out outBound
}

// jsonMaxDepth is Redis's cjson decode_max_depth default.
const jsonMaxDepth = 1000

// nest enters an array or object, failing as Redis's cjson does past
// decode_max_depth; the caller leaves with d.depth--.
func (d *jsonDecoder) nest() {
	d.depth++
	if d.depth > d.opt.decodeMaxDepth {
		d.L.RaiseError("Found too many nested data structures (%d) at character %d", d.depth, d.pos+1)
	}
}

func (d *jsonDecoder) fail(what string) {
	token := "invalid token"
	if d.pos >= len(d.s) {
		token = "T_END"
	}
	d.failToken(what, token)
}

func (d *jsonDecoder) failToken(what, token string) {
	d.L.RaiseError("Expected %s but found %s at character %d", what, token, d.pos+1)
}

func (d *jsonDecoder) skip() {
	for d.pos < len(d.s) && (d.s[d.pos] == ' ' || d.s[d.pos] == '\t' || d.s[d.pos] == '\n' || d.s[d.pos] == '\r') {
		d.pos++
	}
}

func (d *jsonDecoder) value() lua.LValue {
	if d.pos >= len(d.s) {
		d.fail("value")
	}
	d.out.use(valueCost)
	rest := d.s[d.pos:]
	switch c := d.s[d.pos]; {
	case c == '{':
		return d.object()
	case c == '[':
		return d.array()
	case c == '"':
		s := d.str()
		d.out.use(len(s))
		return lua.LString(s)
	case c == '-' || c >= '0' && c <= '9':
		if !d.opt.decodeInvalid && invalidJSONNumber(rest) {
			d.failToken("value", "invalid number")
		}
		return d.number()
	case strings.HasPrefix(rest, "true"):
		d.pos += 4
		return lua.LTrue
	case strings.HasPrefix(rest, "false"):
		d.pos += 5
		return lua.LFalse
	case strings.HasPrefix(rest, "null"):
		d.pos += 4
		return d.null
	case d.opt.decodeInvalid && invalidJSONNumber(rest):
		return d.number()
	}
	d.fail("value")
	return nil
}

// number reads a number as C's strtod does (lua-cjson's reader): the
// longest prefix that is one, hexadecimal, inf and nan included.
func (d *jsonDecoder) number() lua.LValue {
	f, n := strtod(d.s[d.pos:])
	if n == 0 {
		d.failToken("value", "invalid number")
	}
	d.pos += n
	return lua.LNumber(f)
}

// invalidJSONNumber is lua-cjson's json_is_invalid_number: a number JSON
// does not allow (a leading '+' or zero, hexadecimal, inf, nan) that
// decode_invalid_numbers lets through.
func invalidJSONNumber(s string) bool {
	if strings.HasPrefix(s, "+") {
		return true
	}
	s = strings.TrimPrefix(s, "-")
	switch {
	case s == "":
		return false
	case s[0] == '0':
		return len(s) > 1 && (s[1]|0x20 == 'x' || s[1] >= '0' && s[1] <= '9')
	case s[0] <= '9':
		return false
	}
	low := strings.ToLower(s[:min(3, len(s))])
	return low == "inf" || low == "nan"
}

// strtod parses the longest prefix of s that C's strtod reads: an
// optional sign, then inf, infinity, nan, a hexadecimal integer, or a
// decimal number with an optional fraction and exponent. It returns the
// value and the bytes read (0: none).
func strtod(s string) (float64, int) {
	i, neg := 0, false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	sign := func(f float64) float64 {
		if neg {
			return -f
		}
		return f
	}
	low := strings.ToLower(s[i:min(len(s), i+8)])
	switch {
	case strings.HasPrefix(low, "infinity"):
		return sign(math.Inf(1)), i + 8
	case strings.HasPrefix(low, "inf"):
		return sign(math.Inf(1)), i + 3
	case strings.HasPrefix(low, "nan"):
		return math.NaN(), i + 3
	case strings.HasPrefix(low, "0x") && len(low) > 2 && isHex(low[2]):
		j, v := i+2, 0.0
		for ; j < len(s) && isHex(s[j]); j++ {
			h, _ := strconv.ParseUint(s[j:j+1], 16, 8)
			v = v*16 + float64(h)
		}
		return sign(v), j
	}
	j, digits := i, 0
	for ; j < len(s) && isDigit(s[j]); j++ {
		digits++
	}
	if j < len(s) && s[j] == '.' {
		j++
		for ; j < len(s) && isDigit(s[j]); j++ {
			digits++
		}
	}
	if digits == 0 {
		return 0, 0
	}
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		k := j + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if k < len(s) && isDigit(s[k]) {
			for k < len(s) && isDigit(s[k]) {
				k++
			}
			j = k
		}
	}
	f, err := strconv.ParseFloat(s[i:j], 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, 0
	}
	return sign(f), j
}

func isHex(c byte) bool { return isDigit(c) || c|0x20 >= 'a' && c|0x20 <= 'f' }

func (d *jsonDecoder) object() lua.LValue {
	d.nest()
	defer func() { d.depth-- }()
	d.out.use(tableCost)
	t := d.L.CreateTable(0, 0)
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
		d.out.use(entryCost + len(k))
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
	d.out.use(tableCost)
	t := d.L.CreateTable(0, 0)
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
