package scripting

import (
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/rekv/rekv/acl"
)

// scriptClient is the connection commands called from a script see: the
// script's own database (SELECT inside a script does not change the
// caller's, as in Redis 7) and its RESP version. It is only a
// command.Connection: the commands needing another role of a connection
// (subscriptions, MULTI, reply modes, tracking, AUTH) are flagged NoScript.
type scriptClient struct {
	db    int
	proto int
}

func (c *scriptClient) ID() int64         { return 0 }
func (c *scriptClient) DB() int           { return c.db }
func (c *scriptClient) SetDB(db int)      { c.db = db }
func (c *scriptClient) Proto() int        { return c.proto }
func (c *scriptClient) SetProto(int)      {}
func (c *scriptClient) Name() string      { return "" }
func (c *scriptClient) SetName(string)    {}
func (c *scriptClient) SetLibName(string) {}
func (c *scriptClient) SetLibVer(string)  {}
func (c *scriptClient) Info() string      { return "" }
func (c *scriptClient) CloseAfterReply()  {}

// aclCheckCmd is redis.acl_check_cmd(command, args...): whether the
// script's caller may run that command with those arguments (true for an
// unrestricted user). Like Redis's, it finds the command (or its
// subcommand) without checking arity, and raises for an unknown one.
func (v *vm) aclCheckCmd(L *lua.LState) int {
	r := v.run
	if r == nil {
		raise(L, "redis.acl_check_cmd can only be called inside a script invocation")
	}
	args, bad := commandArgs(L)
	if bad != "" {
		raise(L, bad)
	}
	spec := r.c.Registry.Lookup(args[0])
	if spec != nil && len(spec.Subcommands) > 0 && len(args) > 1 {
		spec = r.c.Registry.LookupFull([]byte(spec.Name + "|" + string(args[1])))
	}
	if spec == nil {
		raise(L, "Invalid command passed to redis.acl_check_cmd()")
	}
	ok := true
	if u := r.c.User; u != nil {
		if spec.CheckArity(args) != nil {
			// No keys to check in a call that cannot run anyway.
			name := 1
			if strings.Contains(spec.FullName(), "|") {
				name = 2
			}
			args = args[:min(len(args), name)]
		}
		ok = acl.Permit(u, spec, args) == nil
	}
	L.Push(lua.LBool(ok))
	return 1
}
