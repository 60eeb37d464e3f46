package scripting

import (
	"crypto/sha1"
	"encoding/hex"
	"strings"
	"sync"
	"sync/atomic"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"

	"github.com/rekv/rekv/actors/rerr"
)

// Scripts is a server's script cache (SCRIPT LOAD, EVAL), its copy of the
// function libraries, and its pool of prepared Lua states. It is safe for concurrent use by every shard.
type Scripts struct {
	version   string
	maxMemory uint64
	maxReply  int
	mu        sync.RWMutex
	byHash    map[string]*script
	states    sync.Pool
	// gen is the Lua states' generation: SCRIPT FLUSH starts a new one,
	// as Redis's starts a new Lua state, and states of older ones are
	// dropped rather than reused (state, release).
	gen     atomic.Uint64
	fns     Functions
	running registry
	cjson   [2]*cjsonOptions // scripts', functions' (lib_cjson_options.go)
}

// script is one compiled script.
type script struct {
	sha      string
	proto    *lua.FunctionProto
	flags    scriptFlags // #!lua flags=...
	declared bool        // it has a shebang: judged by its flags, not its calls
}

// Options configure scripting.
type Options struct {
	// Version is what redis.REDIS_VERSION reports.
	Version string
	// MaxMemory bounds how much a running script may grow the heap (see
	// memory.go); 0: no bound.
	MaxMemory uint64
	// MaxReply bounds the reply a script's result converts to, in bytes
	// (convert.go); 0 means maxScriptReply (512 MiB).
	MaxReply int
}

// New returns an empty cache.
func New(o Options) *Scripts {
	if o.MaxReply <= 0 {
		o.MaxReply = maxScriptReply
	}
	s := &Scripts{version: o.Version, maxMemory: o.MaxMemory, maxReply: o.MaxReply, byHash: map[string]*script{}}
	s.cjson = [2]*cjsonOptions{newCJSONOptions(), newCJSONOptions()}
	s.states.New = func() any { return nil }
	return s
}

// state takes a Lua state of the current generation from the pool, or
// makes one.
func (s *Scripts) state() *vm {
	gen := s.gen.Load()
	for {
		v, _ := s.states.Get().(*vm)
		if v == nil {
			v = newState(s.version, s.maxMemory, s.cjson)
			v.gen = gen
			return v
		}
		if v.gen == gen {
			return v
		}
		v.L.Close() // made before a SCRIPT FLUSH
	}
}

// release gives v back to the pool, unless a SCRIPT FLUSH came since it
// was made.
func (s *Scripts) release(v *vm) {
	if v.gen != s.gen.Load() {
		v.L.Close()
		return
	}
	s.states.Put(v)
}

// SHA1 returns body's lower-case hex SHA1, the script's name.
func SHA1(body []byte) string {
	h := sha1.Sum(body)
	return hex.EncodeToString(h[:])
}

// load compiles body (once) and caches it under its SHA1.
func (s *Scripts) load(body []byte) (*script, error) {
	sha := SHA1(body)
	s.mu.RLock()
	sc := s.byHash[sha]
	s.mu.RUnlock()
	if sc != nil {
		return sc, nil
	}
	sc, err := compile(sha, body)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if old := s.byHash[sha]; old != nil {
		sc = old
	} else {
		s.byHash[sha] = sc
	}
	s.mu.Unlock()
	return sc, nil
}

// Cached returns how many scripts the cache holds.
func (s *Scripts) Cached() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.byHash)
}

// get returns the cached script named sha (any case), or nil.
func (s *Scripts) get(sha []byte) *script {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.byHash[strings.ToLower(string(sha))]
}

// flush forgets every script.
func (s *Scripts) flush() {
	s.mu.Lock()
	s.byHash = map[string]*script{}
	s.mu.Unlock()
	s.cjson[0].reset() // Redis's SCRIPT FLUSH starts a new Lua state
	s.gen.Add(1)       // so does rekv: no state made before is used again
}

// compile parses the shebang and compiles the body. The shebang line is
// blanked, not removed, so line numbers in errors stay Redis's.
func compile(sha string, body []byte) (*script, error) {
	sc := &script{sha: sha}
	src := string(body)
	if strings.HasPrefix(src, "#!") {
		line, rest, _ := strings.Cut(src, "\n")
		if err := sc.parseShebang(line); err != nil {
			return nil, err
		}
		src = "\n" + rest
	}
	proto, err := compileChunk(src, "user_script")
	if err != nil {
		return nil, rerr.Errorf("ERR Error compiling script (new function): %s", compileMessage(err, "user_script"))
	}
	sc.proto = proto
	return sc, nil
}

// compileMessage renders a parse error of chunk (user_script,
// user_function) as "chunk:LINE: message".
func compileMessage(err error, chunk string) string {
	if pe, ok := err.(*parse.Error); ok {
		return chunk + ":" + itoa(pe.Pos.Line) + ": " + pe.Message + " near '" + pe.Token + "'"
	}
	return strings.TrimSpace(err.Error())
}

// parseShebang reads "#!lua [flags=a,b]".
func (sc *script) parseShebang(line string) error {
	fields := strings.Fields(line)
	if len(fields) == 0 || fields[0] != "#!lua" {
		return rerr.Errorf("ERR Unexpected engine in script shebang: %s", line)
	}
	sc.declared = true
	for _, f := range fields[1:] {
		list, ok := strings.CutPrefix(f, "flags=")
		if !ok {
			return rerr.Errorf("ERR Unknown lua shebang option: %s", f)
		}
		for _, flag := range strings.Split(list, ",") {
			if flag == "" {
				continue
			}
			bit, ok := flagNames[flag]
			if !ok {
				return rerr.Errorf("ERR Unexpected flag in script shebang: %s", flag)
			}
			sc.flags |= bit
		}
	}
	return nil
}
