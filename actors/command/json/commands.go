package json

import (
	"errors"
	"unicode/utf8"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rjson"
)

// Commands returns the JSON commands' registration table.
func Commands() []*command.Spec {
	key := command.KeySpec{First: 1, Last: 1, Step: 1}
	w := func(name string, arity int, parse func([][]byte) (command.Runner, error)) *command.Spec {
		return &command.Spec{Name: name, Arity: arity, Flags: command.Write, Keys: key, Event: name, Parse: parse}
	}
	r := func(name string, arity int, parse func([][]byte) (command.Runner, error)) *command.Spec {
		return &command.Spec{Name: name, Arity: arity, Flags: command.ReadOnly, Keys: key, Parse: parse}
	}
	del := w("json.del", -2, parseDel)
	forget := w("json.forget", -2, parseDel)
	forget.Event = "json.del"
	mset := w("json.mset", -4, parseMSet)
	mset.Keys = command.KeySpec{First: 1, Last: -1, Step: 3}
	mget := r("json.mget", -3, parseMGet)
	mget.Keys = command.KeySpec{First: 1, Last: -2, Step: 1}
	debug := r("json.debug", -2, parseDebug)
	debug.Keys = command.KeySpec{}
	debug.KeysFunc = func(args [][]byte) []int {
		if len(args) > 2 && command.Is(args[1], "memory") {
			return []int{2}
		}
		return nil
	}
	return []*command.Spec{
		w("json.set", -4, parseSet), r("json.get", -2, parseGet), mget, mset, w("json.merge", -4, parseMerge),
		del, forget, r("json.type", -2, parseType), w("json.clear", -2, parseClear), w("json.toggle", 3, parseToggle),
		w("json.numincrby", 4, parseNum(opIncr)), w("json.nummultby", 4, parseNum(opMult)), w("json.numpowby", 4, parseNum(opPow)),
		w("json.strappend", -3, parseStrAppend), r("json.strlen", -2, parseStrLen),
		w("json.arrappend", -3, parseArrAppend), r("json.arrindex", -4, parseArrIndex), w("json.arrinsert", -5, parseArrInsert),
		r("json.arrlen", -2, parseArrLen), w("json.arrpop", -2, parseArrPop), w("json.arrtrim", 5, parseArrTrim),
		r("json.objkeys", -2, parseObjKeys), r("json.objlen", -2, parseObjLen), r("json.resp", -2, parseResp), debug,
	}
}

// RedisJSON's errors.
var (
	errNoKey        = rerr.Errorf("ERR could not perform this operation on a key that doesn't exist")
	errWrongKeyType = rerr.Errorf("Existing key has wrong Redis type")
	errNotUTF8      = rerr.Errorf("Couldn't parse as UTF-8 string")
	errAtRoot       = rerr.Errorf("ERR new objects must be created at the root")
	errNotInteger   = rerr.Errorf("ERR value is not an integer or out of range")
)

func errPath(p string) error { return rerr.Errorf("ERR Path '%s' does not exist", p) }

func errPathOr(p, or string) error { return rerr.Errorf("ERR Path '%s' does not exist or %s", p, or) }

func errExpected(want, found string) error {
	return rerr.Errorf("WRONGTYPE wrong type of path value - expected %s but found %s", want, found)
}

// path is a command's path argument.
type path struct {
	orig   string // as given
	text   string // as a JSONPath
	legacy bool
}

func newPath(arg []byte) path {
	text, legacy := rjson.Normalize(string(arg))
	return path{orig: string(arg), text: text, legacy: legacy}
}

// rootPath is the default path: "." (legacy).
var rootPath = newPath([]byte("."))

// keyPath is a key and its optional path argument.
type keyPath struct {
	key  []byte
	path path
}

// optionalPath reads args[at] as a key and args[at+1], if given, as its
// path (the root by default).
func optionalPath(args [][]byte, at int) keyPath {
	kp := keyPath{key: args[at], path: rootPath}
	if len(args) > at+1 {
		kp.path = newPath(args[at+1])
	}
	return kp
}

// query compiles p (a syntax error in RedisJSON's words).
func (p path) query() (*rjson.Query, error) {
	if !utf8.ValidString(p.text) {
		return nil, errNotUTF8
	}
	q, err := rjson.Compile(p.text)
	if err != nil {
		return nil, rerr.Errorf("%s", err.Error())
	}
	return q, nil
}

// parseValue parses a JSON argument (RedisJSON's texts for bad ones).
func parseValue(arg []byte) (*rjson.Value, error) {
	if len(arg) > rjson.MaxText {
		return nil, rjson.ErrTooLarge
	}
	if !utf8.Valid(arg) {
		return nil, errNotUTF8
	}
	v, err := rjson.Parse(string(arg))
	if err != nil {
		return nil, rerr.Errorf("%s", err.Error())
	}
	return v, nil
}

// open returns the document at key, nil if missing, RedisJSON's error
// for a key of another type.
func open(c *command.Ctx, key []byte) (*rjson.Doc, error) {
	d, err := rjson.Open(c.Tx, key)
	if errors.Is(err, rerr.ErrWrongType) {
		return nil, errWrongKeyType
	}
	return d, err
}

// mustOpen is open for commands that need the document.
func mustOpen(c *command.Ctx, key []byte) (*rjson.Doc, error) {
	d, err := open(c, key)
	if err == nil && d == nil {
		err = errNoKey
	}
	return d, err
}

// nullable writes one reply element per match: write's, or nil where
// ok is false.
func nullable[T any](c *command.Ctx, vals []T, ok []bool, write func(T)) {
	c.W.Array(len(vals))
	for i, v := range vals {
		if ok[i] {
			write(v)
		} else {
			c.W.Null()
		}
	}
}

// writeJSON writes v's compact JSON text as a bulk string.
func writeJSON(c *command.Ctx, v *rjson.Value) { c.W.Bulk(rjson.Append(nil, v, rjson.Format{})) }
