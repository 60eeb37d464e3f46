package namespaces

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers"
)

// Default is the name of the default namespace (id 0), as kvrocks calls
// it.
const Default = "__namespace"

// The errors of the registry's changes.
var (
	ErrExists      = errors.New("the namespace already exists")
	ErrTokenExists = errors.New("the token already exists")
	ErrNotFound    = errors.New("the namespace was not found")
	ErrDefault     = errors.New("the default namespace cannot be changed")
	ErrName        = errors.New("a namespace name must be 1 to 255 bytes")
	ErrToken       = errors.New("a token must not be empty")
	ErrFull        = errors.New("no namespace id is left")
)

// Namespace is one namespace's definition.
type Namespace struct {
	Name, Token string
	ID          uint32
}

// Registry is the namespaces defined in a store. It is safe for
// concurrent use.
type Registry struct {
	drv drivers.Driver
	mu  sync.RWMutex
	all map[string]Namespace // by name
	// loaded is when the definitions were last read (unix nanoseconds):
	// a lookup that misses reads them again, at most every missReload.
	loaded atomic.Int64
}

// missReload is how often a lookup that misses may read the store again
// (a definition another node just added is found at once; wrong tokens
// cannot make every AUTH a store read).
const missReload = 50 * time.Millisecond

// Load reads the namespaces defined in drv.
func Load(drv drivers.Driver) (*Registry, error) {
	r := &Registry{drv: drv}
	return r, r.Reload()
}

// Reload takes the definitions the store holds now (another node's
// changes).
func (r *Registry) Reload() error {
	tx, err := r.drv.Begin(false)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	all, err := read(tx)
	if err != nil {
		return err
	}
	r.mu.Lock()
	r.all = all
	r.mu.Unlock()
	r.loaded.Store(time.Now().UnixNano())
	return nil
}

// retry reports whether a lookup that missed should read the store
// again, and does (an error leaves the definitions as they were).
func (r *Registry) retry() bool {
	if time.Since(time.Unix(0, r.loaded.Load())) < missReload {
		return false
	}
	return r.Reload() == nil
}

// read returns every definition tx sees.
func read(tx drivers.Txn) (map[string]Namespace, error) {
	all := map[string]Namespace{}
	p := codec.NamespacePrefix()
	err := tx.Iterate(p, codec.PrefixEnd(p), drivers.IterOptions{}, func(k, v []byte) (bool, error) {
		id, token, err := codec.DecodeNamespace(v)
		if err != nil {
			return false, err
		}
		name := string(bytes.TrimPrefix(k, p))
		all[name] = Namespace{Name: name, Token: token, ID: id}
		return true, nil
	})
	return all, err
}

// Get returns namespace name's definition.
func (r *Registry) Get(name string) (Namespace, bool) {
	return r.find(func(ns Namespace) bool { return ns.Name == name })
}

// ByToken returns the namespace whose token is token.
func (r *Registry) ByToken(token string) (Namespace, bool) {
	return r.find(func(ns Namespace) bool { return ns.Token == token })
}

// ByID returns the namespace whose id is id.
func (r *Registry) ByID(id uint32) (Namespace, bool) {
	return r.find(func(ns Namespace) bool { return ns.ID == id })
}

// find returns the definition match selects, reading the store again
// once if none does.
func (r *Registry) find(match func(Namespace) bool) (Namespace, bool) {
	for try := 0; ; try++ {
		r.mu.RLock()
		for _, ns := range r.all {
			if match(ns) {
				r.mu.RUnlock()
				return ns, true
			}
		}
		r.mu.RUnlock()
		if try > 0 || !r.retry() {
			return Namespace{}, false
		}
	}
}

// All returns every definition, by name.
func (r *Registry) All() []Namespace {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]Namespace, 0, len(r.all))
	for _, ns := range r.all {
		out = append(out, ns)
	}
	slices.SortFunc(out, func(a, b Namespace) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Add defines namespace name with token, under a new id.
func (r *Registry) Add(name, token string) (Namespace, error) {
	if err := check(name, token); err != nil {
		return Namespace{}, err
	}
	var added Namespace
	err := r.change(func(tx drivers.Txn, all map[string]Namespace, last *uint32) error {
		if _, ok := all[name]; ok {
			return ErrExists
		}
		if tokenTaken(all, token, "") {
			return ErrTokenExists
		}
		if *last >= codec.MaxNamespace {
			return ErrFull
		}
		*last++
		added = Namespace{Name: name, Token: token, ID: *last}
		return tx.Set(codec.NamespaceKey(name), codec.EncodeNamespace(added.ID, token))
	})
	return added, err
}

// Set gives namespace name a new token.
func (r *Registry) Set(name, token string) error {
	if err := check(name, token); err != nil {
		return err
	}
	return r.change(func(tx drivers.Txn, all map[string]Namespace, last *uint32) error {
		ns, ok := all[name]
		if !ok {
			return ErrNotFound
		}
		if tokenTaken(all, token, name) {
			return ErrTokenExists
		}
		return tx.Set(codec.NamespaceKey(name), codec.EncodeNamespace(ns.ID, token))
	})
}

// Del removes namespace name's definition and returns it: its databases
// are then the caller's to flush.
func (r *Registry) Del(name string) (Namespace, error) {
	if name == Default {
		return Namespace{}, ErrDefault
	}
	var gone Namespace
	err := r.change(func(tx drivers.Txn, all map[string]Namespace, last *uint32) error {
		ns, ok := all[name]
		if !ok {
			return ErrNotFound
		}
		gone = ns
		return tx.Delete(codec.NamespaceKey(name))
	})
	return gone, err
}

// check applies the rules on a name and a token.
func check(name, token string) error {
	switch {
	case name == Default:
		return ErrDefault
	case len(name) == 0 || len(name) > 255:
		return ErrName
	case token == "":
		return ErrToken
	}
	return nil
}

// tokenTaken reports whether a namespace other than except has token.
func tokenTaken(all map[string]Namespace, token, except string) bool {
	for _, ns := range all {
		if ns.Token == token && ns.Name != except {
			return true
		}
	}
	return false
}

// lastID returns the last id given (0: none yet).
func lastID(tx drivers.Txn) (uint32, error) {
	b, err := tx.Get(codec.NamespaceIDKey())
	if errors.Is(err, drivers.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	id, _, err := codec.DecodeNamespace(b)
	return id, err
}

// change runs fn in a transaction over the definitions the store holds
// (retried on a conflict with another node's change), then takes the
// result.
func (r *Registry) change(fn func(tx drivers.Txn, all map[string]Namespace, last *uint32) error) error {
	for try := 0; ; try++ {
		err := r.try(fn)
		if !errors.Is(err, drivers.ErrConflict) || try == 49 { // one change wins each round: 50 is many nodes at once
			if err == nil {
				err = r.Reload()
			}
			return err
		}
	}
}

func (r *Registry) try(fn func(tx drivers.Txn, all map[string]Namespace, last *uint32) error) error {
	tx, err := r.drv.Begin(true)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	all, err := read(tx)
	if err != nil {
		return err
	}
	last, err := lastID(tx)
	if err != nil {
		return err
	}
	if err := fn(tx, all, &last); err != nil {
		return err
	}
	// Every change writes the id key, changed or not: two changes at
	// once then conflict on it (on TiKV, whose conflicts are between
	// writes, too), so the second re-checks the rules against the first.
	if err := tx.Set(codec.NamespaceIDKey(), codec.EncodeNamespace(last, "")); err != nil {
		return err
	}
	return tx.Commit()
}
