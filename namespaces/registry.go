package namespaces

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"sync"

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
}

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
	return nil
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
	r.mu.RLock()
	defer r.mu.RUnlock()
	ns, ok := r.all[name]
	return ns, ok
}

// ByToken returns the namespace whose token is token.
func (r *Registry) ByToken(token string) (Namespace, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	for _, ns := range r.all {
		if ns.Token == token {
			return ns, true
		}
	}
	return Namespace{}, false
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
