package acl

import (
	"github.com/rekv/rekv/actors/rerr"
)

// Command is what a permission check needs of a command: its full name
// ("get", "config|get"), whether it writes, where its keys are in a
// command line, and the key-spec flags of each ("RW", "access",
// "update"...; nil when unknown).
type Command interface {
	FullName() string
	Writes() bool
	KeyIndexes(args [][]byte, dst []int) []int
	KeyFlags(args [][]byte, keys []int) [][]string
}

// Denial says why a user may not run a command line: the reason (command,
// key or channel) and the object (the command, key or channel).
type Denial struct{ Reason, Object string }

// Error returns the NOPERM error of the denial.
func (d *Denial) Error() error {
	switch d.Reason {
	case "command":
		return rerr.Errorf("NOPERM this user has no permissions to run the '%s' command", d.Object)
	case "key":
		return rerr.Errorf("NOPERM this user has no permissions to access one of the keys used as arguments")
	}
	return rerr.Errorf("NOPERM this user has no permissions to access one of the channels used as arguments")
}

// Permit checks a command line against a user: nil when allowed. As in
// Redis, a key needs read access when its key spec says "access" and
// write access when it says "insert", "delete" or "update" (the
// command's KeyFlags; without them: read for commands that do not
// write, write for the others); channels are those of PUBLISH,
// SPUBLISH, (S)SUBSCRIBE and PSUBSCRIBE.
//
// With selectors, the command runs if the root selector or one of the
// others allows it whole; otherwise the denial reported is the most
// specific one (a channel over a key over the command), as in Redis.
func Permit(u *User, cmd Command, args [][]byte) *Denial {
	if u.Free() {
		return nil
	}
	best := permitSelector(&u.Selector, cmd, args)
	if best == nil {
		return nil
	}
	rank := map[string]int{"command": 1, "key": 2, "channel": 4}
	for _, sel := range u.Selectors() {
		d := permitSelector(sel, cmd, args)
		if d == nil {
			return nil
		}
		if rank[d.Reason] > rank[best.Reason] {
			best = d
		}
	}
	return best
}

// permitSelector checks a command line against one selector.
func permitSelector(u *Selector, cmd Command, args [][]byte) *Denial {
	name := cmd.FullName()
	if !u.CanRun(name) {
		return &Denial{Reason: "command", Object: name}
	}
	var idx [8]int
	keys := cmd.KeyIndexes(args, idx[:0])
	var flags [][]string
	if len(keys) > 0 && !u.AllKeys() {
		flags = cmd.KeyFlags(args, keys)
	}
	for n, i := range keys {
		if i >= len(args) {
			continue
		}
		read, write := !cmd.Writes(), cmd.Writes()
		if n < len(flags) && flags[n] != nil {
			read, write = false, false
			for _, f := range flags[n] {
				switch f {
				case "access":
					read = true
				case "insert", "delete", "update":
					write = true
				}
			}
		}
		if !u.CanKey(args[i], read, write) {
			return &Denial{Reason: "key", Object: string(args[i])}
		}
	}
	var channels [][]byte
	pattern := false
	switch name {
	case "publish", "spublish":
		channels = args[1:2]
	case "subscribe", "ssubscribe":
		channels = args[1:]
	case "psubscribe":
		channels, pattern = args[1:], true
	}
	for _, ch := range channels {
		if !u.CanChannel(ch, pattern) {
			return &Denial{Reason: "channel", Object: string(ch)}
		}
	}
	return nil
}
