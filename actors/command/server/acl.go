package server

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"io"
	"os"
	"strings"
	"time"

	"github.com/rekv/rekv/acl"
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/atomicfile"
)

// ACL <subcommand>: Redis 7.0's access control lists over the server's
// acl.Store (see package acl). Selectors and an ACL file are not kept.
func aclSubcommands() []*command.Spec {
	conn := command.Conn | command.NoScript
	return []*command.Spec{
		{Name: "setuser", Arity: -3, Flags: conn, Parse: aclParser("setuser")},
		{Name: "getuser", Arity: 3, Flags: conn, Parse: aclParser("getuser")},
		{Name: "deluser", Arity: -3, Flags: conn, Parse: aclParser("deluser")},
		{Name: "list", Arity: 2, Flags: conn, Parse: aclParser("list")},
		{Name: "users", Arity: 2, Flags: conn, Parse: aclParser("users")},
		{Name: "whoami", Arity: 2, Flags: conn | command.Fast, Parse: aclParser("whoami")},
		{Name: "cat", Arity: -2, Flags: conn, Parse: aclParser("cat")},
		{Name: "genpass", Arity: -2, Flags: conn, Parse: aclParser("genpass")},
		{Name: "log", Arity: -2, Flags: conn, Parse: aclParser("log")},
		{Name: "dryrun", Arity: -4, Flags: conn, Parse: aclParser("dryrun")},
		{Name: "save", Arity: 2, Flags: conn, Parse: aclParser("save")},
		{Name: "load", Arity: 2, Flags: conn, Parse: aclParser("load")},
		command.HelpSpec("ACL <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
			"CAT [<category>]", "    The ACL categories, or the commands in one.",
			"DELUSER <username> [<username> ...]", "    Deletes users and closes their connections.",
			"DRYRUN <username> <command> [<arg> ...]", "    Whether the user could run the command.",
			"GETUSER <username>", "    A user's flags, passwords (hashed), commands, keys and channels.",
			"GENPASS [<bits>]", "    A random password (256 bits unless given), in hex.",
			"LIST", "    Every user, as ACL rules.",
			"LOAD", "    Not kept: rekv has no ACL file.",
			"LOG [<count> | RESET]", "    The newest denied commands, keys, channels and logins, or empties the log.",
			"SAVE", "    Not kept: rekv has no ACL file.",
			"SETUSER <username> <attribute> [<attribute> ...]", "    Creates or changes a user.",
			"USERS", "    The user names.",
			"WHOAMI", "    The user of this connection.",
			"HELP", "    Prints this help."),
	}
}

type aclCmd struct {
	sub  string
	args [][]byte
}

func aclParser(sub string) func([][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) { return aclCmd{sub: sub, args: args}, nil }
}

func (a aclCmd) Run(c *command.Ctx) error {
	store := c.Server.Config.ACL()
	w, args := c.W, a.args
	switch a.sub {
	case "setuser":
		if bytes.ContainsAny(args[2], " \t\n\v\f\r\x00") { // Redis's ACLStringHasSpaces
			return rerr.Errorf("ERR Usernames can't contain spaces or null characters")
		}
		rules := make([]string, 0, len(args)-3)
		for _, r := range args[3:] {
			rules = append(rules, string(r))
		}
		if err := store.SetUser(string(args[2]), rules); err != nil {
			return rerr.Errorf("ERR %v", err)
		}
		if name := string(args[2]); name != "" { // an empty filter field would match every client
			killDeniedSubscribers(c, store.User(name))
		}
		w.OK()
	case "getuser":
		u := store.User(string(args[2]))
		if u == nil {
			w.Null()
			return nil
		}
		w.Map(6)
		w.BulkString("flags")
		flags := u.Flags()
		w.Array(len(flags))
		for _, f := range flags {
			w.BulkString(f)
		}
		w.BulkString("passwords")
		pw := u.Passwords()
		w.Array(len(pw))
		for _, p := range pw {
			w.BulkString(p)
		}
		w.BulkString("commands")
		w.BulkString(store.CommandsRule(&u.Selector))
		w.BulkString("keys")
		w.BulkString(u.KeysRule())
		w.BulkString("channels")
		w.BulkString(u.ChannelsRule())
		w.BulkString("selectors")
		w.Array(len(u.Selectors()))
		for _, sel := range u.Selectors() {
			w.Map(3)
			w.BulkString("commands")
			w.BulkString(store.CommandsRule(sel))
			w.BulkString("keys")
			w.BulkString(sel.KeysRule())
			w.BulkString("channels")
			w.BulkString(sel.ChannelsRule())
		}
	case "deluser":
		names := make([]string, 0, len(args)-2)
		for _, n := range args[2:] {
			names = append(names, string(n))
		}
		gone, err := store.DelUser(names)
		if err != nil {
			return rerr.Errorf("ERR %v", err)
		}
		for _, name := range gone { // their connections end, as in Redis
			if name != "" { // an empty filter field would match every client
				c.Server.Clients.KillClients(command.KillFilter{User: name}, c.Client.Conn)
			}
		}
		w.Int(int64(len(gone)))
	case "list":
		users := store.Users()
		w.Array(len(users))
		for _, n := range users {
			w.BulkString(store.Describe(store.User(n)))
		}
	case "users":
		users := store.Users()
		w.Array(len(users))
		for _, n := range users {
			w.BulkString(n)
		}
	case "whoami":
		w.BulkString(c.Client.Auth.User())
	case "cat":
		if len(args) == 2 {
			cats := acl.Categories()
			w.Array(len(cats))
			for _, x := range cats {
				w.BulkString(x)
			}
			return nil
		}
		if len(args) > 3 {
			return rerr.ErrArity("acl|cat")
		}
		cat := strings.ToLower(string(args[2]))
		found := false
		for _, x := range acl.Categories() {
			found = found || x == cat
		}
		if !found {
			return rerr.Errorf("ERR Unknown category '%s'", args[2])
		}
		names := store.Catalog().InCategory(cat)
		w.Array(len(names))
		for _, n := range names {
			w.BulkString(n)
		}
	case "genpass":
		bits := int64(256)
		if len(args) > 3 {
			return rerr.ErrArity("acl|genpass")
		}
		if len(args) == 3 {
			n, err := command.Int(args[2])
			if err != nil || n <= 0 || n > 4096 {
				return rerr.Errorf("ERR ACL GENPASS argument must be the number of bits for the output password, a positive number up to 4096")
			}
			bits = n
		}
		b := make([]byte, (bits+7)/8)
		_, _ = rand.Read(b) // crypto/rand never fails on Linux
		w.BulkString(hex.EncodeToString(b)[:(bits+3)/4])
	case "log":
		return aclLog(c, store, args)
	case "dryrun":
		return aclDryRun(c, store, args)
	case "save", "load":
		file := ""
		for _, kv := range c.Server.Config.ConfigGet([][]byte{[]byte("aclfile")}) {
			file = kv[1]
		}
		if file == "" {
			return rerr.Errorf("ERR This Redis instance is not configured to use an ACL file. You may want to specify users via " +
				"the ACL SETUSER command and then issue a CONFIG REWRITE (assuming you have a Redis configuration file set) in order " +
				"to store users in the Redis configuration.")
		}
		var err error
		if a.sub == "save" {
			err = SaveACLFile(store, file)
		} else {
			err = LoadACLFile(store, file)
		}
		if err != nil {
			return rerr.Errorf("ERR %v", err)
		}
		w.OK()
	}
	return nil
}

// aclLog serves ACL LOG [count | RESET].
func aclLog(c *command.Ctx, store *acl.Store, args [][]byte) error {
	count := 10
	switch {
	case len(args) > 3:
		return rerr.ErrArity("acl|log")
	case len(args) == 3 && strings.EqualFold(string(args[2]), "reset"):
		store.LogReset()
		c.W.OK()
		return nil
	case len(args) == 3:
		n, err := command.Int(args[2])
		if err != nil || n < 0 {
			return rerr.Errorf("ERR value is out of range, must be positive")
		}
		count = int(min(n, 1<<20))
	}
	entries := store.LogEntries(count)
	w := c.W
	w.Array(len(entries))
	now := time.Now()
	for _, e := range entries {
		w.Map(7)
		w.BulkString("count")
		w.Int(int64(e.Count))
		w.BulkString("reason")
		w.BulkString(e.Reason)
		w.BulkString("context")
		w.BulkString(e.Context)
		w.BulkString("object")
		w.BulkString(e.Object)
		w.BulkString("username")
		w.BulkString(e.Username)
		w.BulkString("age-seconds")
		w.Double(now.Sub(e.Created).Seconds())
		w.BulkString("client-info")
		w.BulkString(e.ClientInfo)
	}
	return nil
}

// aclDryRun serves ACL DRYRUN user command [arg ...].
func aclDryRun(c *command.Ctx, store *acl.Store, args [][]byte) error {
	u := store.User(string(args[2]))
	if u == nil {
		return rerr.Errorf("ERR User '%s' not found", args[2])
	}
	line := args[3:]
	spec, err := c.Registry.Resolve(line)
	if err != nil {
		if c.Registry.Lookup(line[0]) == nil {
			return rerr.Errorf("ERR Command '%s' not found", line[0])
		}
		return rerr.Errorf("ERR wrong number of arguments for '%s' command", strings.ToLower(string(line[0])))
	}
	denial := acl.Permit(u, spec, line)
	if denial == nil {
		c.W.OK()
		return nil
	}
	switch denial.Reason {
	case "command":
		c.W.BulkString("This user has no permissions to run the '" + spec.FullName() + "' command")
	case "key":
		c.W.BulkString("This user has no permissions to access the '" + denial.Object + "' key")
	default:
		c.W.BulkString("This user has no permissions to access the '" + denial.Object + "' channel")
	}
	return nil
}

// LoadACLFile replaces the users with those of an ACL file (ACL LOAD,
// server.aclfile at start): all of them or none.
func LoadACLFile(store *acl.Store, file string) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	return store.LoadLines(file, strings.Split(string(data), "\n"))
}

// SaveACLFile writes every user to an ACL file (ACL SAVE), through a
// synced temporary file renamed over it.
func SaveACLFile(store *acl.Store, file string) error {
	return atomicfile.Write(file, 0o600, func(w io.Writer) error {
		_, err := io.WriteString(w, strings.Join(store.Lines(), "\n")+"\n")
		return err
	})
}

// killDeniedSubscribers disconnects u's clients subscribed to a channel or
// pattern u's rules no longer allow, as Redis does after ACL SETUSER.
func killDeniedSubscribers(c *command.Ctx, u *acl.User) {
	if u == nil || u.Free() {
		return
	}
	allowed := func(ch []byte, pattern bool) bool {
		if u.CanChannel(ch, pattern) {
			return true
		}
		for _, sel := range u.Selectors() {
			if sel.CanChannel(ch, pattern) {
				return true
			}
		}
		return false
	}
	denied := func(cl command.Subscriber) bool {
		for _, ch := range cl.Subscribed(false) {
			if !allowed(ch, false) {
				return true
			}
		}
		for _, p := range cl.Subscribed(true) {
			if !allowed(p, true) {
				return true
			}
		}
		for _, ch := range cl.ShardSubscribed() {
			if !allowed(ch, false) {
				return true
			}
		}
		return false
	}
	c.Server.Clients.KillClients(command.KillFilter{User: u.Name, Match: denied}, c.Client.Conn)
}
