package scripting

import (
	"bytes"
	"crypto/rand"
	"sync"

	lua "github.com/yuin/gopher-lua"

	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/codec"
)

// Functions is a node's copy of the function libraries, which live in
// storage (codec.FunctionKey) so that they survive restarts and every node
// sharing a TiKV cluster sees the same ones. Each namespace has libraries
// of its own. Each transaction that uses them first compares the stored
// version of its namespace's (codec.FunctionsVersionKey) with the copy's
// and reloads the copy when another command or node changed it.
type Functions struct {
	mu   sync.Mutex
	gen  uint64            // bumped at every reload of any set; vms reload after it
	sets map[uint32]*fnSet // by namespace
}

// fnSet is one namespace's libraries.
type fnSet struct {
	version []byte              // the stored version the copy reflects
	gen     uint64              // Functions.gen when it was read
	libs    map[string]*library // by name
}

// sync brings namespace ns's copy up to date with tx's view of storage
// and returns it (callers must not change the map) and its generation,
// which no other copy ever has.
func (f *Functions) sync(tx *store.Tx, ns uint32) (map[string]*library, uint64, error) {
	v, err := tx.Records().System(codec.FunctionsVersionKey(ns))
	if err != nil {
		return nil, 0, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if set := f.sets[ns]; set != nil && bytes.Equal(v, set.version) {
		return set.libs, set.gen, nil
	}
	libs := map[string]*library{}
	err = tx.Records().ScanSystem(codec.FunctionPrefix(ns), func(_, code []byte) (bool, error) {
		lib, err := parseLibrary(string(code))
		if err != nil {
			return false, err
		}
		libs[lib.name] = lib
		return true, nil
	})
	if err != nil {
		return nil, 0, err
	}
	set := f.put(ns, libs, bytes.Clone(v))
	return set.libs, set.gen, nil
}

// put makes libs, at stored version v, namespace ns's copy, under a new
// generation. The caller holds mu.
func (f *Functions) put(ns uint32, libs map[string]*library, v []byte) *fnSet {
	if f.sets == nil {
		f.sets = map[uint32]*fnSet{}
	}
	f.gen++
	set := &fnSet{version: v, gen: f.gen, libs: libs}
	f.sets[ns] = set
	return set
}

// save stores namespace ns's libraries that changed (nil code deletes)
// and a new version, in tx, and makes them the node's copy at once (libs
// is the copy they change), so that FCALL's admission judges a function
// loaded a moment ago by its flags. Should tx not commit, the next sync
// finds the stored version differs from the copy's and reads the store
// again.
func (f *Functions) save(tx *store.Tx, ns uint32, libs map[string]*library, changes map[string]*library, deleted []string) error {
	for _, name := range deleted {
		if err := tx.Records().DeleteSystem(codec.FunctionKey(ns, name)); err != nil {
			return err
		}
	}
	for _, lib := range changes {
		if err := tx.Records().SetSystem(codec.FunctionKey(ns, lib.name), []byte(lib.code)); err != nil {
			return err
		}
	}
	var v [8]byte
	_, _ = rand.Read(v[:]) // crypto/rand never fails on Linux
	if err := tx.Records().SetSystem(codec.FunctionsVersionKey(ns), v[:]); err != nil {
		return err
	}
	next := make(map[string]*library, len(libs)+len(changes))
	for name, lib := range libs {
		next[name] = lib
	}
	for _, name := range deleted {
		delete(next, name)
	}
	for name, lib := range changes {
		next[name] = lib
	}
	f.mu.Lock()
	f.put(ns, next, v[:])
	f.mu.Unlock()
	return nil
}

// bind makes sure v has every library of generation gen loaded and returns
// the closure of function name.
func (v *vm) bind(libs map[string]*library, gen uint64, name string) (*lua.LFunction, error) {
	if v.fns == nil || v.fnGen != gen {
		fns := map[string]*lua.LFunction{}
		for _, lib := range libs {
			v.loading = &loading{lib: &library{name: lib.name}, fns: fns}
			err := v.loadLibrary(lib.code)
			v.loading = nil
			if err != nil {
				return nil, err
			}
		}
		v.fns, v.fnGen = fns, gen
	}
	return v.fns[name], nil
}

// cached returns namespace ns's libraries as last read (nil before any
// read).
func (f *Functions) cached(ns uint32) map[string]*library {
	f.mu.Lock()
	defer f.mu.Unlock()
	if set := f.sets[ns]; set != nil {
		return set.libs
	}
	return nil
}
