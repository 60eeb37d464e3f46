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
// sharing a TiKV cluster sees the same ones. Each transaction that uses
// them first compares the stored version (codec.FunctionsVersionKey) with
// the copy's and reloads the copy when another command or node changed it.
type Functions struct {
	mu      sync.Mutex
	version []byte              // the stored version the copy reflects
	gen     uint64              // bumped at every reload; vms reload after it
	libs    map[string]*library // by name
}

// sync brings the copy up to date with tx's view of storage and returns
// it (callers must not change the map).
func (f *Functions) sync(tx *store.Tx) (map[string]*library, uint64, error) {
	v, err := tx.Records().System(codec.FunctionsVersionKey())
	if err != nil {
		return nil, 0, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.libs != nil && bytes.Equal(v, f.version) {
		return f.libs, f.gen, nil
	}
	libs := map[string]*library{}
	err = tx.Records().ScanSystem(codec.FunctionPrefix(), func(_, code []byte) (bool, error) {
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
	f.libs, f.version = libs, bytes.Clone(v)
	f.gen++
	return f.libs, f.gen, nil
}

// save stores the libraries that changed (nil code deletes) and a new
// version, in tx, and makes them the node's copy at once (libs is the
// copy they change), so that FCALL's admission judges a function loaded
// a moment ago by its flags. Should tx not commit, the next sync finds
// the stored version differs from the copy's and reads the store again.
func (f *Functions) save(tx *store.Tx, libs map[string]*library, changes map[string]*library, deleted []string) error {
	for _, name := range deleted {
		if err := tx.Records().DeleteSystem(codec.FunctionKey(name)); err != nil {
			return err
		}
	}
	for _, lib := range changes {
		if err := tx.Records().SetSystem(codec.FunctionKey(lib.name), []byte(lib.code)); err != nil {
			return err
		}
	}
	var v [8]byte
	_, _ = rand.Read(v[:]) // crypto/rand never fails on Linux
	if err := tx.Records().SetSystem(codec.FunctionsVersionKey(), v[:]); err != nil {
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
	f.libs, f.version = next, v[:]
	f.gen++
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

// cached returns the libraries as last read (nil before any read).
func (f *Functions) cached() map[string]*library {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.libs
}
