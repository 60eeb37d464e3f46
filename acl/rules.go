package acl

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// ruleError is the reason a SETUSER rule failed, in Redis's words.
type ruleError string

func (e ruleError) Error() string { return string(e) }

// Errors of SETUSER rules, as Redis words them.
const (
	errSyntax         ruleError = "Syntax error"
	errUnknownCommand ruleError = "Unknown command or category name in ACL"
	errNamespaceName  ruleError = "A namespace a user is bound to cannot have spaces in its name"
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

// NamespaceRule is the rule that binds a user to a namespace, followed by
// its name ("namespace=" alone: the default namespace): rekv's own, in a
// form none of Redis's rules can take (those are words, or start with one
// of ~ % & + - > < # ! ( characters).
const NamespaceRule = "namespace="

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
		for _, r := range []string{"resetpass", "resetkeys", "resetchannels", "off", "-@all", "sanitize-payload", "clearselectors", NamespaceRule} {
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
	if strings.HasPrefix(lower, NamespaceRule) {
		name := rule[len(NamespaceRule):]
		if strings.ContainsAny(name, " \t\r\n") {
			return errNamespaceName
		}
		u.Namespace = name
		return nil
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
