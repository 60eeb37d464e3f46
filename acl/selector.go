package acl

import (
	"slices"
	"strings"

	"github.com/rekv/rekv/glob"
)

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
