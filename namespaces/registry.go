package namespaces

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
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
	ErrQuota       = errors.New("a quota must not be negative")
)

// Namespace is one namespace's definition, its quotas and its usage as
// last measured.
type Namespace struct {
	Name, Token string
	ID          uint32
	Quota       Quota
	Usage       Usage
}

// Quota is a namespace's limits; 0 is none. Keys and Bytes are checked
// against the measured Usage (writes that may grow the data are refused
// while it is at or over them); Ops bounds the commands per second and
// Clients the connections, each on one node.
type Quota struct {
	Keys, Bytes, Ops, Clients int64
}

// value is q as stored (codec.NamespaceQuotaKey).
func (q Quota) value() []byte { return codec.EncodeInts(q.Keys, q.Bytes, q.Ops, q.Clients) }

// Usage is a namespace's live keys and their estimated bytes, as the
// GC's meter last measured them (At: when; zero: never).
type Usage struct {
	Keys, Bytes int64
	At          time.Time
}

// Registry is the namespaces defined in a store. It is safe for
// concurrent use.
type Registry struct {
	drv  drivers.Driver
	mu   sync.RWMutex
	all  map[string]Namespace // by name
	byID map[uint32]Namespace
	// loaded is when the definitions were last read (unix nanoseconds):
	// a lookup that misses reads them again, at most every retryAfter
	// (missReload; tests change it).
	loaded     atomic.Int64
	retryAfter time.Duration
}

// missReload is how often a lookup that misses may read the store again
// (a definition another node just added is found at once; wrong tokens
// cannot make every AUTH a store read).
const missReload = 50 * time.Millisecond

// Load reads the namespaces defined in drv.
func Load(drv drivers.Driver) (*Registry, error) {
	r := &Registry{drv: drv, retryAfter: missReload}
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
	byID := make(map[uint32]Namespace, len(all))
	for _, ns := range all {
		byID[ns.ID] = ns
	}
	r.mu.Lock()
	r.all, r.byID = all, byID
	r.mu.Unlock()
	r.loaded.Store(time.Now().UnixNano())
	return nil
}

// retry reports whether a lookup that missed should read the store
// again, and does (an error leaves the definitions as they were).
func (r *Registry) retry() bool {
	if time.Since(time.Unix(0, r.loaded.Load())) < r.retryAfter {
		return false
	}
	return r.Reload() == nil
}

// read returns every definition tx sees, with its quotas and usage.
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
	if err != nil {
		return nil, err
	}
	byID := make(map[uint32]string, len(all))
	for name, ns := range all {
		byID[ns.ID] = name
	}
	for _, p := range [][]byte{codec.NamespaceQuotaPrefix(), codec.NamespaceUsagePrefix()} {
		quota := bytes.Equal(p, codec.NamespaceQuotaPrefix())
		err := tx.Iterate(p, codec.PrefixEnd(p), drivers.IterOptions{}, func(k, v []byte) (bool, error) {
			id, err := codec.NamespaceIDOf(p, k)
			if err != nil {
				return false, err
			}
			name, ok := byID[id]
			if !ok {
				return true, nil // a deleted namespace's, not yet removed
			}
			ns := all[name]
			if quota {
				q, err := codec.DecodeInts(v, 4)
				if err != nil {
					return false, err
				}
				ns.Quota = Quota{Keys: q[0], Bytes: q[1], Ops: q[2], Clients: q[3]}
			} else {
				u, err := codec.DecodeInts(v, 3)
				if err != nil {
					return false, err
				}
				ns.Usage = Usage{Keys: u[0], Bytes: u[1], At: time.UnixMilli(u[2])}
			}
			all[name] = ns
			return true, nil
		})
		if err != nil {
			return nil, err
		}
	}
	return all, nil
}

// Get returns namespace name's definition.
func (r *Registry) Get(name string) (Namespace, bool) {
	return r.find(func() (Namespace, bool) {
		ns, ok := r.all[name]
		return ns, ok
	})
}

// ByToken returns the namespace whose token is token.
func (r *Registry) ByToken(token string) (Namespace, bool) {
	return r.find(func() (Namespace, bool) {
		for _, ns := range r.all {
			if ns.Token == token {
				return ns, true
			}
		}
		return Namespace{}, false
	})
}

// ByID returns the namespace whose id is id, as last read (it does not
// read the store again: the engine asks it of every command run in a
// named namespace).
func (r *Registry) ByID(id uint32) (Namespace, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	ns, ok := r.byID[id]
	return ns, ok
}

// find returns what lookup finds in the definitions (run under the read
// lock), reading the store again once if it finds nothing.
func (r *Registry) find(lookup func() (Namespace, bool)) (Namespace, bool) {
	for try := 0; ; try++ {
		r.mu.RLock()
		ns, ok := lookup()
		r.mu.RUnlock()
		if ok || try > 0 || !r.retry() {
			return ns, ok
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
		for _, k := range [][]byte{codec.NamespaceQuotaKey(ns.ID), codec.NamespaceUsageKey(ns.ID)} {
			if err := tx.Delete(k); err != nil {
				return err
			}
		}
		return tx.Delete(codec.NamespaceKey(name))
	})
	return gone, err
}

// SetQuota gives namespace name quota q.
func (r *Registry) SetQuota(name string, q Quota) error {
	if name == Default {
		return ErrDefault
	}
	if q.Keys < 0 || q.Bytes < 0 || q.Ops < 0 || q.Clients < 0 {
		return ErrQuota
	}
	return r.change(func(tx drivers.Txn, all map[string]Namespace, last *uint32) error {
		ns, ok := all[name]
		if !ok {
			return ErrNotFound
		}
		return tx.Set(codec.NamespaceQuotaKey(ns.ID), q.value())
	})
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

// The channels whose PUBLISH carries namespaces in the replication
// stream, which a Redis replica delivers to no one: ReplChannel a
// master's definitions (Encode), WriteChannel a named namespace's write
// (package repl). Clients may not publish to channels under
// ReservedPrefix: a replica would take their messages for its master's.
const (
	ReservedPrefix = "__rekv__:"
	ReplChannel    = ReservedPrefix + "namespaces"
	WriteChannel   = ReservedPrefix + "namespace"
)

// defJSON is a definition as Encode writes it.
type defJSON struct {
	ID    uint32   `json:"id"`
	Name  string   `json:"name"`
	Token string   `json:"token"`
	Quota [4]int64 `json:"quota"` // keys, bytes, ops, clients
}

// Encode encodes definitions (names, tokens, ids and quotas; not usage)
// for a replica (Decode, Replace).
func Encode(all []Namespace) []byte {
	out := make([]defJSON, len(all))
	for i, ns := range all {
		out[i] = defJSON{ns.ID, ns.Name, ns.Token, [4]int64{ns.Quota.Keys, ns.Quota.Bytes, ns.Quota.Ops, ns.Quota.Clients}}
	}
	b, _ := json.Marshal(out) // plain values: never fails
	return b
}

// Decode inverts Encode.
func Decode(b []byte) ([]Namespace, error) {
	var in []defJSON
	if err := json.Unmarshal(b, &in); err != nil {
		return nil, fmt.Errorf("namespaces: %w", err)
	}
	out := make([]Namespace, len(in))
	for i, d := range in {
		if err := check(d.Name, d.Token); err != nil || d.ID == 0 || d.ID > codec.MaxNamespace {
			return nil, fmt.Errorf("namespaces: a bad definition %q (id %d)", d.Name, d.ID)
		}
		out[i] = Namespace{Name: d.Name, Token: d.Token, ID: d.ID,
			Quota: Quota{Keys: d.Quota[0], Bytes: d.Quota[1], Ops: d.Quota[2], Clients: d.Quota[3]}}
	}
	return out, nil
}

// Replace makes defs the store's definitions (a replica takes its
// master's): the others are removed, with their quotas and usage; the
// last id given becomes at least the highest of defs. It returns the ids
// of the namespaces removed, whose databases the caller flushes.
func (r *Registry) Replace(defs []Namespace) ([]uint32, error) {
	var removed []uint32
	err := r.change(func(tx drivers.Txn, all map[string]Namespace, last *uint32) error {
		removed = removed[:0]
		byID := map[uint32]Namespace{}
		for _, d := range defs {
			byID[d.ID] = d
			*last = max(*last, d.ID)
		}
		for name, ns := range all {
			d, kept := byID[ns.ID]
			if !kept {
				removed = append(removed, ns.ID)
				for _, k := range [][]byte{codec.NamespaceQuotaKey(ns.ID), codec.NamespaceUsageKey(ns.ID)} {
					if err := tx.Delete(k); err != nil {
						return err
					}
				}
			}
			if !kept || d.Name != name {
				if err := tx.Delete(codec.NamespaceKey(name)); err != nil {
					return err
				}
			}
		}
		for _, ns := range defs {
			if err := tx.Set(codec.NamespaceKey(ns.Name), codec.EncodeNamespace(ns.ID, ns.Token)); err != nil {
				return err
			}
			q := ns.Quota
			if err := tx.Set(codec.NamespaceQuotaKey(ns.ID), q.value()); err != nil {
				return err
			}
		}
		return nil
	})
	return removed, err
}
