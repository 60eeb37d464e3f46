package acl

import (
	"slices"
)

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
	// Namespace is the namespace the user's connections enter when they
	// authenticate (rule "namespace=<name>"; "": the default one).
	Namespace string
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
	if u.Namespace != "" {
		f = append(f, NamespaceRule+u.Namespace)
	}
	return f
}

// Passwords returns the password digests.
func (u *User) Passwords() []string { return slices.Clone(u.passwords) }
