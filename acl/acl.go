// Package acl keeps Redis 7's access control lists: users with passwords,
// the commands they may run (by command, subcommand and category), the
// keys (read, write or both) and the Pub/Sub channels they may touch.
//
// Invariants:
//   - A User is immutable once stored: SETUSER builds a new one from the
//     old and swaps the whole user table (copy on write), so the hot path
//     checks permissions on a snapshot without locks.
//   - Permissions are kept per leaf command: a plain command, or each
//     subcommand of a container. Rules on a container apply to all its
//     subcommands; categories come from the command table (Catalog).
//   - Passwords are kept as SHA-256 hex digests only.
//   - The "default" user always exists; it is what requirepass sets.
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

	"github.com/rekv/rekv/actors/command/glob"
)

// Categories lists Redis's ACL categories in Redis's order (ACL CAT).
var categoryOrder = []string{"keyspace", "read", "write", "set", "sortedset", "list", "hash", "string", "bitmap",
	"hyperloglog", "geo", "stream", "pubsub", "admin", "fast", "slow", "blocking", "dangerous", "connection",
	"transaction", "scripting"}

// Categories returns Redis's ACL categories in Redis's order.
func Categories() []string { return slices.Clone(categoryOrder) }

// Catalog is the command table as ACL sees it: every leaf command (a
// command, or a container's subcommand, "config|get") with its
// categories.
type Catalog struct {
	// KeyFlags, when set, returns the key-spec flags of each key
	// argument (keys: their indexes in args) of a command line ("RW",
	// "access", "update"...): what decides the read and write access the
	// user needs on each key.
	KeyFlags func(name string, args [][]byte, keys []int) [][]string
	leaves   []string            // sorted
	cats     map[string][]string // leaf -> categories, without '@'
	children map[string][]string // container -> its leaves
	known    map[string]bool     // leaves and containers
}

// NewCatalog builds a catalog from full command names and their ACL
// categories ("@read"...): a name with '|' is a subcommand.
func NewCatalog(categories map[string][]string) *Catalog {
	c := &Catalog{cats: map[string][]string{}, children: map[string][]string{}, known: map[string]bool{}}
	for name := range categories {
		if i := strings.IndexByte(name, '|'); i > 0 {
			c.children[name[:i]] = append(c.children[name[:i]], name)
		}
	}
	for name, cats := range categories {
		c.known[name] = true
		if _, container := c.children[name]; container {
			continue
		}
		c.leaves = append(c.leaves, name)
		for _, cat := range cats {
			c.cats[name] = append(c.cats[name], strings.TrimPrefix(cat, "@"))
		}
	}
	sort.Strings(c.leaves)
	for k := range c.children {
		sort.Strings(c.children[k])
	}
	return c
}

// InCategory returns the leaf commands of a category, sorted (ACL CAT).
func (c *Catalog) InCategory(cat string) []string {
	var out []string
	for _, l := range c.leaves {
		if slices.Contains(c.cats[l], cat) {
			out = append(out, l)
		}
	}
	return out
}

func (c *Catalog) leavesOf(name string) []string {
	if ch, ok := c.children[name]; ok {
		return ch
	}
	if c.known[name] {
		return []string{name}
	}
	return nil
}

// keyPattern is one key pattern with the access it grants.
type keyPattern struct {
	pattern     string
	read, write bool
}

// Selector is one set of permissions: the commands, keys and channels
// it allows. A user has its root selector and any number of others
// (Redis 7's "(...)" rules); a command runs if one of them allows it
// whole.
type Selector struct {
	allowed     map[string]bool // leaf command -> may run it
	allFuture   bool            // +@all: commands added later are allowed too
	allKeys     bool
	keys        []keyPattern
	allChannels bool
	channels    []string
	// cats are the category rules applied since the last allcommands or
	// nocommands ("+read", "-string"), in order: how GETUSER describes
	// the commands (CommandsRule).
	cats []string
}

func newSelector() *Selector { return &Selector{allowed: map[string]bool{}} }

func (sel *Selector) clone() *Selector {
	n := *sel
	n.allowed = make(map[string]bool, len(sel.allowed))
	for k, v := range sel.allowed {
		n.allowed[k] = v
	}
	n.keys = slices.Clone(sel.keys)
	n.channels = slices.Clone(sel.channels)
	n.cats = slices.Clone(sel.cats)
	return &n
}

// User is one user's state. It is immutable once stored.
type User struct {
	Selector  // the root selector
	Name      string
	On        bool
	NoPass    bool
	passwords []string // SHA-256 hex, in the order added
	selectors []*Selector
	free      bool // may run anything on anything (Unrestricted), set when stored
	// sanitize is the RESTORE payload flag: "", "sanitize-payload" or
	// "skip-sanitize-payload" (shown, not otherwise used: rekv always
	// checks RESTORE payloads).
	sanitize string
}

// Selectors returns the user's selectors other than the root one.
func (u *User) Selectors() []*Selector { return u.selectors }

// Free reports whether the user may run anything on anything: the hot
// path skips every other check.
func (u *User) Free() bool { return u.free }

func (u *User) clone() *User {
	n := *u
	n.Selector = *u.Selector.clone()
	n.passwords = slices.Clone(u.passwords)
	n.selectors = make([]*Selector, len(u.selectors))
	for i, sel := range u.selectors {
		n.selectors[i] = sel.clone()
	}
	return &n
}

// Unrestricted reports whether the user may run anything on anything.
func (u *User) Unrestricted(c *Catalog) bool {
	return u.Selector.unrestricted(c)
}

func (u *Selector) unrestricted(c *Catalog) bool {
	if !u.allFuture || !u.allKeys || !u.allChannels {
		return false
	}
	for _, l := range c.leaves {
		if !u.allowed[l] {
			return false
		}
	}
	return true
}

// CanRun reports whether the user may run the command full name
// ("get", "config|get"). A command the catalog does not know (rekv's
// own) is allowed to users who may run every future command.
func (u *Selector) CanRun(name string) bool {
	if v, ok := u.allowed[name]; ok {
		return v
	}
	return u.allFuture
}

// AllKeys reports whether the user may access every key.
func (u *Selector) AllKeys() bool { return u.allKeys }

// CanKey reports whether the user may access key for reading and/or
// writing.
func (u *Selector) CanKey(key []byte, read, write bool) bool {
	if u.allKeys {
		return true
	}
	for _, p := range u.keys {
		if (!read || p.read) && (!write || p.write) && glob.Match([]byte(p.pattern), key, false) {
			return true
		}
	}
	return false
}

// CanChannel reports whether the user may use channel; pattern is true
// for PSUBSCRIBE's patterns, which must be one of the user's own
// patterns literally.
func (u *Selector) CanChannel(channel []byte, pattern bool) bool {
	if u.allChannels {
		return true
	}
	for _, p := range u.channels {
		if pattern && p == string(channel) || !pattern && glob.Match([]byte(p), channel, false) {
			return true
		}
	}
	return false
}

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

// ruleError is the reason a SETUSER rule failed, in Redis's words.
type ruleError string

func (e ruleError) Error() string { return string(e) }

// Errors of SETUSER rules, as Redis words them.
const (
	errSyntax         ruleError = "Syntax error"
	errUnknownCommand ruleError = "Unknown command or category name in ACL"
	errBadHash        ruleError = "The password hash must be exactly 64 characters and contain only lowercase hexadecimal characters"
	errNoSuchPassword ruleError = "The password you are trying to remove from the user does not exist"
	errAfterAllKeys   ruleError = "Adding a pattern after the * pattern (or the 'allkeys' flag) is not valid and does not have any effect. Try 'resetkeys' to start with an empty list of patterns"
	errAfterAllChans  ruleError = "Adding a pattern after the * pattern (or the 'allchannels' flag) is not valid and does not have any effect. Try 'resetchannels' to start with an empty list of channels"
	errDeleteDefault  ruleError = "The 'default' user cannot be removed"
)

// RuleError is a SETUSER rule that could not be applied.
type RuleError struct {
	Rule string
	Err  error
}

func (e *RuleError) Error() string {
	return fmt.Sprintf("Error in ACL SETUSER modifier '%s': %s", e.Rule, e.Err)
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

// mergeSelectors joins the arguments of a selector that spans several
// ("(~x", "+get)") into one rule, as Redis does.
func mergeSelectors(rules []string) ([]string, error) {
	var out []string
	for i := 0; i < len(rules); i++ {
		r := rules[i]
		if !strings.HasPrefix(r, "(") || strings.HasSuffix(r, ")") {
			out = append(out, r)
			continue
		}
		j := i + 1
		for j < len(rules) && !strings.HasSuffix(rules[j], ")") {
			j++
		}
		if j == len(rules) {
			return nil, ruleError(fmt.Sprintf("Unmatched parenthesis in acl selector starting at '%s'.", r))
		}
		out = append(out, strings.Join(rules[i:j+1], " "))
		i = j
	}
	return out, nil
}

// apply applies one rule to the user: the user's own (on, passwords,
// reset...), a selector "(...)", or one of the root selector's.
func (s *Store) apply(u *User, rule string) error {
	lower := strings.ToLower(rule)
	switch lower {
	case "on":
		u.On = true
		return nil
	case "off":
		u.On = false
		return nil
	case "nopass":
		u.NoPass, u.passwords = true, nil
		return nil
	case "resetpass":
		u.NoPass, u.passwords = false, nil
		return nil
	case "reset":
		for _, r := range []string{"resetpass", "resetkeys", "resetchannels", "off", "-@all", "sanitize-payload", "clearselectors"} {
			_ = s.apply(u, r)
		}
		return nil
	case "sanitize-payload", "skip-sanitize-payload":
		u.sanitize = lower
		return nil
	case "clearselectors":
		u.selectors = nil
		return nil
	}
	if rule == "" {
		return errSyntax
	}
	switch rule[0] {
	case '>':
		h := Hash([]byte(rule[1:]))
		if !slices.Contains(u.passwords, h) {
			u.passwords = append(u.passwords, h)
		}
		u.NoPass = false
		return nil
	case '#':
		if !validHash(rule[1:]) {
			return errBadHash
		}
		if !slices.Contains(u.passwords, rule[1:]) {
			u.passwords = append(u.passwords, rule[1:])
		}
		u.NoPass = false
		return nil
	case '<', '!':
		h := rule[1:]
		if rule[0] == '<' {
			h = Hash([]byte(h))
		} else if !validHash(h) {
			return errBadHash
		}
		i := slices.Index(u.passwords, h)
		if i < 0 {
			return errNoSuchPassword
		}
		u.passwords = slices.Delete(u.passwords, i, i+1)
		return nil
	case '(':
		if !strings.HasSuffix(rule, ")") {
			return errSyntax
		}
		sel := newSelector()
		for _, r := range strings.Fields(rule[1 : len(rule)-1]) {
			if err := s.applySelector(sel, r); err != nil {
				return err
			}
		}
		u.selectors = append(u.selectors, sel)
		return nil
	}
	return s.applySelector(&u.Selector, rule)
}

// applySelector applies a rule about commands, keys or channels.
func (s *Store) applySelector(u *Selector, rule string) error {
	switch strings.ToLower(rule) {
	case "allkeys", "~*":
		u.allKeys, u.keys = true, nil
		return nil
	case "resetkeys":
		u.allKeys, u.keys = false, nil
		return nil
	case "allchannels", "&*":
		u.allChannels, u.channels = true, nil
		return nil
	case "resetchannels":
		u.allChannels, u.channels = false, nil
		return nil
	case "allcommands", "+@all":
		u.allFuture, u.cats = true, nil
		for _, l := range s.cat.leaves {
			u.allowed[l] = true
		}
		return nil
	case "nocommands", "-@all":
		u.allFuture, u.cats = false, nil
		clear(u.allowed)
		return nil
	}
	if rule == "" {
		return errSyntax
	}
	switch rule[0] {
	case '~':
		return addKeyPattern(u, rule[1:], true, true)
	case '%':
		perm, pattern, ok := strings.Cut(rule[1:], "~")
		if !ok || perm == "" {
			return errSyntax
		}
		var r, w bool
		for _, c := range strings.ToUpper(perm) {
			switch c {
			case 'R':
				r = true
			case 'W':
				w = true
			default:
				return errSyntax
			}
		}
		return addKeyPattern(u, pattern, r, w)
	case '&':
		if u.allChannels {
			return errAfterAllChans
		}
		if !slices.Contains(u.channels, rule[1:]) {
			u.channels = append(u.channels, rule[1:])
		}
		return nil
	case '+', '-':
		allow := rule[0] == '+'
		name := strings.ToLower(rule[1:])
		if cat, ok := strings.CutPrefix(name, "@"); ok {
			if !slices.Contains(categoryOrder, cat) {
				return errUnknownCommand
			}
			for _, l := range s.cat.InCategory(cat) {
				u.allowed[l] = allow
			}
			u.cats = slices.DeleteFunc(u.cats, func(c string) bool { return c[1:] == cat })
			u.cats = append(u.cats, rule[:1]+cat)
			return nil
		}
		leaves := s.cat.leavesOf(name)
		if len(leaves) == 0 {
			return errUnknownCommand
		}
		for _, l := range leaves {
			u.allowed[l] = allow
		}
		return nil
	}
	return errSyntax
}

func addKeyPattern(u *Selector, pattern string, r, w bool) error {
	if u.allKeys {
		return errAfterAllKeys
	}
	if pattern == "*" && r && w {
		u.allKeys, u.keys = true, nil
		return nil
	}
	for i, p := range u.keys {
		if p.pattern == pattern {
			u.keys[i].read, u.keys[i].write = p.read || r, p.write || w
			return nil
		}
	}
	u.keys = append(u.keys, keyPattern{pattern: pattern, read: r, write: w})
	return nil
}

// Flags returns GETUSER's flags.
func (u *User) Flags() []string {
	f := []string{"off"}
	if u.On {
		f[0] = "on"
	}
	if u.NoPass {
		f = append(f, "nopass")
	}
	if u.sanitize != "" {
		f = append(f, u.sanitize)
	}
	return f
}

// Passwords returns the password digests.
func (u *User) Passwords() []string { return slices.Clone(u.passwords) }

// KeysRule describes the key patterns as GETUSER does ("~*", "~a %R~b").
func (u *Selector) KeysRule() string {
	if u.allKeys {
		return "~*"
	}
	parts := make([]string, 0, len(u.keys))
	for _, p := range u.keys {
		switch {
		case p.read && p.write:
			parts = append(parts, "~"+p.pattern)
		case p.read:
			parts = append(parts, "%R~"+p.pattern)
		default:
			parts = append(parts, "%W~"+p.pattern)
		}
	}
	return strings.Join(parts, " ")
}

// ChannelsRule describes the channel patterns as GETUSER does.
func (u *Selector) ChannelsRule() string {
	if u.allChannels {
		return "&*"
	}
	parts := make([]string, 0, len(u.channels))
	for _, c := range u.channels {
		parts = append(parts, "&"+c)
	}
	return strings.Join(parts, " ")
}

// CommandsRule describes the command permissions as Redis 7.0 does:
// "+@all" or "-@all", then the category rules applied since (those that
// still change something), then the single commands (and subcommands)
// that differ from what those give. Redis lists these last ones in its
// hash table's order; rekv in name order.
func (s *Store) CommandsRule(u *Selector) string {
	cat := s.cat
	fake := newSelector()
	var parts []string
	if u.allFuture {
		parts = append(parts, "+@all")
		_ = s.applySelector(fake, "+@all")
	} else {
		parts = append(parts, "-@all")
	}
	for _, c := range u.cats {
		changes := false
		for _, l := range cat.InCategory(c[1:]) {
			changes = changes || fake.allowed[l] != (c[0] == '+')
		}
		if changes {
			op := c[:1] + "@" + c[1:]
			_ = s.applySelector(fake, op)
			parts = append(parts, op)
		}
	}
	var names []string
	for name := range cat.known {
		if !strings.Contains(name, "|") {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		leaves := cat.leavesOf(name)
		_, container := cat.children[name]
		all, none, same := true, true, true
		for _, l := range leaves {
			all = all && u.allowed[l]
			none = none && !u.allowed[l]
			same = same && u.allowed[l] == fake.allowed[l]
		}
		switch {
		case same:
		case all || none || !container:
			op := "+" + name
			if none {
				op = "-" + name
			}
			_ = s.applySelector(fake, op)
			parts = append(parts, op)
		default:
			for _, l := range leaves {
				if u.allowed[l] != fake.allowed[l] {
					op := "+" + l
					if !u.allowed[l] {
						op = "-" + l
					}
					fake.allowed[l] = u.allowed[l]
					parts = append(parts, op)
				}
			}
		}
	}
	return strings.Join(parts, " ")
}

// Describe returns the user as ACL LIST shows it.
func (s *Store) Describe(u *User) string {
	parts := []string{"user", u.Name}
	parts = append(parts, u.Flags()...)
	for _, p := range u.passwords {
		parts = append(parts, "#"+p)
	}
	parts = append(parts, s.describeSelector(&u.Selector))
	for _, sel := range u.selectors {
		parts = append(parts, "("+s.describeSelector(sel)+")")
	}
	return strings.Join(parts, " ")
}

// describeSelector returns a selector's keys, channels and commands.
func (s *Store) describeSelector(sel *Selector) string {
	var parts []string
	if k := sel.KeysRule(); k != "" {
		parts = append(parts, k)
	}
	if sel.allChannels {
		parts = append(parts, "&*")
	} else {
		parts = append(parts, "resetchannels")
		if c := sel.ChannelsRule(); c != "" {
			parts = append(parts, c)
		}
	}
	parts = append(parts, s.CommandsRule(sel))
	return strings.Join(parts, " ")
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
