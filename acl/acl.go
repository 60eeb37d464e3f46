package acl

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// Store holds the users.
type Store struct {
	cat   *Catalog
	mu    sync.Mutex // writers
	users atomic.Pointer[map[string]*User]
	log   aclLog
	// onChange, when set, runs after every change (OnChange).
	onChange atomic.Pointer[func()]
}

// New returns a store with the default user (on, nopass, everything).
func New(cat *Catalog) *Store {
	s := &Store{cat: cat}
	def := &User{Name: "default", On: true, NoPass: true,
		Selector: Selector{allowed: map[string]bool{}, allFuture: true, allKeys: true, allChannels: true}}
	for _, l := range cat.leaves {
		def.allowed[l] = true
	}
	def.free = true
	s.users.Store(&map[string]*User{"default": def})
	s.log.max = 128
	return s
}

// Catalog returns the store's command table.
func (s *Store) Catalog() *Catalog { return s.cat }

// User returns a user's current state, nil if there is none.
func (s *Store) User(name string) *User { return (*s.users.Load())[name] }

// Users returns the user names, sorted.
func (s *Store) Users() []string {
	m := *s.users.Load()
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// SetUser applies rules to user name (created, off and with no
// permissions, if missing): all of them or none.
func (s *Store) SetUser(name string, rules []string) error {
	if err := s.setUser(name, rules); err != nil {
		return err
	}
	s.notify()
	return nil
}

func (s *Store) setUser(name string, rules []string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	old := *s.users.Load()
	u := old[name]
	if u == nil {
		u = &User{Name: name, Selector: *newSelector()}
	} else {
		u = u.clone()
	}
	rules, err := mergeSelectors(rules)
	if err != nil {
		return err
	}
	for _, r := range rules {
		if err := s.apply(u, r); err != nil {
			return &RuleError{Rule: r, Err: err}
		}
	}
	next := make(map[string]*User, len(old)+1)
	for k, v := range old {
		next[k] = v
	}
	u.free = u.Unrestricted(s.cat)
	next[name] = u
	s.users.Store(&next)
	return nil
}

// DelUser removes users (not default) and returns those that existed.
func (s *Store) DelUser(names []string) ([]string, error) {
	if slices.Contains(names, "default") {
		return nil, errDeleteDefault
	}
	gone := s.delUser(names)
	if len(gone) > 0 {
		s.notify()
	}
	return gone, nil
}

func (s *Store) delUser(names []string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	old := *s.users.Load()
	next := make(map[string]*User, len(old))
	for k, v := range old {
		next[k] = v
	}
	var gone []string
	for _, name := range names {
		if _, ok := next[name]; ok {
			delete(next, name)
			gone = append(gone, name)
		}
	}
	s.users.Store(&next)
	return gone
}

// Hash returns a password's SHA-256 hex digest.
func Hash(pass []byte) string {
	h := sha256.Sum256(pass)
	return hex.EncodeToString(h[:])
}

// Check reports whether name/pass authenticates: the user exists, is on,
// and has nopass or the password.
func (s *Store) Check(name string, pass []byte) bool {
	u := s.User(name)
	if u == nil || !u.On {
		return false
	}
	if u.NoPass {
		return true
	}
	return slices.Contains(u.passwords, Hash(pass))
}

func validHash(h string) bool {
	if len(h) != 64 {
		return false
	}
	for _, c := range h {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// Lines returns every user as an ACL file line ("user alice on ..."),
// sorted by name.
func (s *Store) Lines() []string {
	names := s.Users()
	out := make([]string, 0, len(names))
	for _, n := range names {
		out = append(out, s.Describe(s.User(n)))
	}
	return out
}

// LoadLines replaces every user with those of ACL file lines ("user
// <name> <rule> ..."; blank lines and # comments skipped), all or none.
// A default user the lines do not name is the initial one (on, nopass,
// everything). source names the lines in errors ("users.acl").
func (s *Store) LoadLines(source string, lines []string) error {
	if err := s.load(source, lines); err != nil {
		return err
	}
	s.notify()
	return nil
}

// Adopt is LoadLines for users read from another node (shared store):
// OnChange's function is not called.
func (s *Store) Adopt(source string, lines []string) error { return s.load(source, lines) }

func (s *Store) load(source string, lines []string) error {
	fresh := New(s.cat)
	for i, line := range lines {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Fields(line)
		if f[0] != "user" || len(f) < 2 {
			return fmt.Errorf("%s:%d: line should start with user keyword", source, i+1)
		}
		rules := f[2:]
		if f[1] == "default" { // from nothing, as any other user in the file
			rules = append([]string{"resetpass", "resetkeys", "resetchannels", "off", "-@all"}, rules...)
		}
		if err := fresh.setUser(f[1], rules); err != nil {
			return fmt.Errorf("%s:%d: %v", source, i+1, err)
		}
	}
	s.mu.Lock()
	s.users.Store(fresh.users.Load())
	s.mu.Unlock()
	return nil
}

// OnChange sets a function called after every change of the users
// (SETUSER, DELUSER, LoadLines): the node persists them for the other
// nodes of a shared store.
func (s *Store) OnChange(fn func()) { s.onChange.Store(&fn) }

func (s *Store) notify() {
	if fn := s.onChange.Load(); fn != nil {
		(*fn)()
	}
}
