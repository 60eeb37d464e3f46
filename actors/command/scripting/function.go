package scripting

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"slices"
	"strings"
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/codec/rdb"
	"github.com/rekv/rekv/glob"
)

// FUNCTION LOAD [REPLACE] code: validates and stores a library; replies
// its name.
type fnLoad struct {
	s       *Scripts
	code    string
	replace bool
}

func (s *Scripts) parseFnLoad(args [][]byte) (command.Runner, error) {
	x := &fnLoad{s: s}
	rest := args[2:]
	if len(rest) == 2 && command.Is(rest[0], "replace") {
		x.replace, rest = true, rest[1:]
	}
	if len(rest) != 1 {
		return nil, rerr.Errorf("ERR Unknown option given: %s", rest[0])
	}
	x.code = string(rest[0])
	return x, nil
}

func (x *fnLoad) Run(c *command.Ctx) error {
	lib, err := parseLibrary(x.code)
	if err != nil {
		return err
	}
	libs, _, err := x.s.fns.sync(c.Tx, c.Namespace())
	if err != nil {
		return err
	}
	if _, exists := libs[lib.name]; exists && !x.replace {
		return rerr.Errorf("ERR Library '%s' already exists", lib.name)
	}
	for name, other := range libs {
		if name == lib.name {
			continue
		}
		for _, f := range lib.funcs {
			if other.find(f.name) != nil {
				return rerr.Errorf("ERR Function %s already exists", f.name)
			}
		}
	}
	if err := x.s.fns.save(c.Tx, c.Namespace(), libs, map[string]*library{lib.name: lib}, nil); err != nil {
		return err
	}
	c.W.BulkString(lib.name)
	return nil
}

// FUNCTION DELETE library-name
type fnDelete struct {
	s    *Scripts
	name string
}

func (s *Scripts) parseFnDelete(args [][]byte) (command.Runner, error) {
	return &fnDelete{s, string(args[2])}, nil
}

func (x *fnDelete) Run(c *command.Ctx) error {
	libs, _, err := x.s.fns.sync(c.Tx, c.Namespace())
	if err != nil {
		return err
	}
	if _, ok := libs[x.name]; !ok {
		return rerr.Errorf("ERR Library not found")
	}
	if err := x.s.fns.save(c.Tx, c.Namespace(), libs, nil, []string{x.name}); err != nil {
		return err
	}
	c.W.OK()
	return nil
}

// FUNCTION FLUSH [ASYNC | SYNC]
type fnFlush struct{ s *Scripts }

func (s *Scripts) parseFnFlush(args [][]byte) (command.Runner, error) {
	if len(args) > 3 { // Redis's addReplySubcommandSyntaxError
		return nil, rerr.Errorf("ERR unknown subcommand or wrong number of arguments for '%s'. Try FUNCTION HELP.", args[1])
	}
	if len(args) == 3 && !command.Is(args[2], "sync") && !command.Is(args[2], "async") {
		return nil, rerr.Errorf("ERR FUNCTION FLUSH only supports SYNC|ASYNC option")
	}
	return &fnFlush{s}, nil
}

func (x *fnFlush) Run(c *command.Ctx) error {
	libs, _, err := x.s.fns.sync(c.Tx, c.Namespace())
	if err != nil {
		return err
	}
	names := libraryNames(libs)
	if err := x.s.fns.save(c.Tx, c.Namespace(), libs, nil, names); err != nil {
		return err
	}
	c.W.OK()
	return nil
}

// FUNCTION LIST [LIBRARYNAME pattern] [WITHCODE]: libraries in name order.
type fnList struct {
	s        *Scripts
	pattern  []byte
	withCode bool
}

func (s *Scripts) parseFnList(args [][]byte) (command.Runner, error) {
	x := &fnList{s: s}
	for i := 2; i < len(args); i++ {
		switch {
		case command.Is(args[i], "withcode") && !x.withCode:
			x.withCode = true
		case command.Is(args[i], "libraryname") && x.pattern == nil:
			if i+1 >= len(args) {
				return nil, rerr.Errorf("ERR library name argument was not given")
			}
			i++
			x.pattern = args[i]
		default:
			return nil, rerr.Errorf("ERR Unknown argument %s", args[i])
		}
	}
	return x, nil
}

func (x *fnList) Run(c *command.Ctx) error {
	libs, _, err := x.s.fns.sync(c.Tx, c.Namespace())
	if err != nil {
		return err
	}
	var names []string
	for name := range libs {
		if x.pattern == nil || glob.Match(x.pattern, []byte(name), false) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	c.W.Array(len(names))
	for _, name := range names {
		lib := libs[name]
		n := 3
		if x.withCode {
			n = 4
		}
		c.W.Map(n)
		c.W.BulkString("library_name")
		c.W.BulkString(lib.name)
		c.W.BulkString("engine")
		c.W.BulkString("LUA")
		c.W.BulkString("functions")
		c.W.Array(len(lib.funcs))
		for _, f := range lib.funcs {
			c.W.Map(3)
			c.W.BulkString("name")
			c.W.BulkString(f.name)
			c.W.BulkString("description")
			if f.desc == "" {
				c.W.Null()
			} else {
				c.W.BulkString(f.desc)
			}
			c.W.BulkString("flags")
			c.W.Set(len(f.flags))
			for _, fl := range f.flags {
				c.W.Simple(fl)
			}
		}
		if x.withCode {
			c.W.BulkString("library_code")
			c.W.BulkString(lib.code)
		}
	}
	return nil
}

// FUNCTION STATS: the function running now (the longest-running one:
// rekv's shards may run several at once), and the library counts. It is
// flagged allow-busy: while a script runs, the network front runs it
// without a transaction (c.Tx nil), from the libraries as last read (the
// running function was found in them), and refuses it BUSY while an EVAL
// is busy, as Redis does.
type fnStats struct{ s *Scripts }

func (s *Scripts) parseFnStats([][]byte) (command.Runner, error) { return &fnStats{s}, nil }

func (x *fnStats) Run(c *command.Ctx) error {
	var libs map[string]*library
	if c.Tx == nil {
		libs = x.s.fns.cached(c.Namespace())
	} else {
		var err error
		if libs, _, err = x.s.fns.sync(c.Tx, c.Namespace()); err != nil {
			return err
		}
	}
	funcs := 0
	for _, lib := range libs {
		funcs += len(lib.funcs)
	}
	c.W.Map(2)
	c.W.BulkString("running_script")
	if r := x.s.running.oldest(true); r != nil {
		c.W.Map(3)
		c.W.BulkString("name")
		c.W.BulkString(r.name)
		c.W.BulkString("command")
		c.W.Array(len(r.command))
		for _, a := range r.command {
			c.W.Bulk(a)
		}
		c.W.BulkString("duration_ms")
		c.W.Int(time.Since(r.start).Milliseconds())
	} else {
		c.W.Null()
	}
	c.W.BulkString("engines")
	c.W.Map(1)
	c.W.BulkString("LUA")
	c.W.Map(2)
	c.W.BulkString("libraries_count")
	c.W.Int(int64(len(libs)))
	c.W.BulkString("functions_count")
	c.W.Int(int64(funcs))
	return nil
}

// FUNCTION DUMP: every library in Redis 7.0's payload (codec/rdb), so
// that it restores into Redis and Redis's into rekv.
type fnDump struct{ s *Scripts }

func (s *Scripts) parseFnDump([][]byte) (command.Runner, error) { return &fnDump{s}, nil }

func (x *fnDump) Run(c *command.Ctx) error {
	libs, _, err := x.s.fns.sync(c.Tx, c.Namespace())
	if err != nil {
		return err
	}
	var codes [][]byte
	for _, name := range libraryNames(libs) {
		codes = append(codes, []byte(libs[name].code))
	}
	c.W.Bulk(rdb.DumpFunctions(codes))
	return nil
}

// FUNCTION RESTORE payload [FLUSH | APPEND | REPLACE]
type fnRestore struct {
	s       *Scripts
	payload []byte
	policy  string
}

func (s *Scripts) parseFnRestore(args [][]byte) (command.Runner, error) {
	x := &fnRestore{s: s, payload: args[2], policy: "append"}
	if len(args) > 4 { // Redis's addReplySubcommandSyntaxError
		return nil, rerr.Errorf("ERR unknown subcommand or wrong number of arguments for '%s'. Try FUNCTION HELP.", args[1])
	}
	if len(args) == 4 {
		switch {
		case command.Is(args[3], "flush"), command.Is(args[3], "append"), command.Is(args[3], "replace"):
			x.policy = string(bytesLower(args[3]))
		default:
			return nil, rerr.Errorf("ERR Wrong restore policy given, value should be either FLUSH, APPEND or REPLACE.")
		}
	}
	return x, nil
}

func bytesLower(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}

func (x *fnRestore) Run(c *command.Ctx) error {
	codes, err := functionCodes(x.payload)
	if err != nil {
		return err
	}
	var loaded []*library
	for _, code := range codes {
		lib, err := parseLibrary(string(code))
		if err != nil {
			return err
		}
		loaded = append(loaded, lib)
	}
	libs, _, err := x.s.fns.sync(c.Tx, c.Namespace())
	if err != nil {
		return err
	}
	var deleted []string
	if x.policy == "flush" {
		deleted = libraryNames(libs)
	}
	changes := map[string]*library{}
	for _, lib := range loaded {
		if _, exists := libs[lib.name]; exists && x.policy == "append" {
			return rerr.Errorf("ERR Library %s already exists", lib.name)
		}
		changes[lib.name] = lib
	}
	// As Redis's libraryJoin: no function name (case-insensitive) in two
	// libraries of the result; nothing changes otherwise.
	seen := map[string]bool{}
	for _, name := range libraryNames(libs) {
		if _, replaced := changes[name]; !replaced && x.policy != "flush" {
			for _, f := range libs[name].funcs {
				seen[strings.ToLower(f.name)] = true
			}
		}
	}
	for _, lib := range loaded {
		for _, f := range lib.funcs {
			if seen[strings.ToLower(f.name)] {
				return rerr.Errorf("ERR Function %s already exists", f.name)
			}
			seen[strings.ToLower(f.name)] = true
		}
	}
	if err := x.s.fns.save(c.Tx, c.Namespace(), libs, changes, deleted); err != nil {
		return err
	}
	c.W.OK()
	return nil
}

// libraryNames returns the libraries' names in order.
func libraryNames(libs map[string]*library) []string {
	names := make([]string, 0, len(libs))
	for name := range libs {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// rekvDumpMagic starts the payload FUNCTION DUMP wrote before it wrote
// Redis's (each library's code with a 4-byte length, then a CRC32 of the
// rest); FUNCTION RESTORE still reads it.
const rekvDumpMagic = "rekvfn1"

// functionCodes returns the library codes of a FUNCTION RESTORE payload,
// Redis's or rekv's earlier one, or the error Redis answers.
func functionCodes(p []byte) ([][]byte, error) {
	bad := rerr.Errorf("ERR DUMP payload version or checksum are wrong")
	if len(p) >= len(rekvDumpMagic)+4 && string(p[:len(rekvDumpMagic)]) == rekvDumpMagic &&
		crc32.ChecksumIEEE(p[:len(p)-4]) == binary.BigEndian.Uint32(p[len(p)-4:]) {
		var codes [][]byte
		for rest := p[len(rekvDumpMagic) : len(p)-4]; len(rest) > 0; {
			if len(rest) < 4 || uint64(binary.BigEndian.Uint32(rest)) > uint64(len(rest)-4) {
				return nil, bad
			}
			n := binary.BigEndian.Uint32(rest)
			codes = append(codes, rest[4:4+n])
			rest = rest[4+n:]
		}
		return codes, nil
	}
	body, err := rdb.Verify(p)
	if err != nil {
		return nil, bad
	}
	codes, err := rdb.DecodeFunctions(body)
	switch {
	case errors.Is(err, rdb.ErrNotFunction), errors.Is(err, rdb.ErrFunctionPreGA):
		return nil, rerr.Errorf("ERR %s", err.Error())
	case err != nil:
		return nil, rerr.Errorf("ERR failed loading the given functions payload")
	}
	return codes, nil
}
