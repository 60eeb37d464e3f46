package server

import (
	"strconv"
	"strings"
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/resp"
)

// DEBUG <subcommand>: refused unless enable-debug-command allows it, as
// in Redis 7 (default no; set it at start under server.redis: yes, or
// local for loopback clients only). The subset with a meaning in rekv:
// SLEEP (this connection waits; others go on), PAUSE-CRON (pauses the
// periodic housekeeping, as Redis's serverCron), SET-ACTIVE-EXPIRE (pauses
// the GC's expiry; keys still read as expired), SET-DISABLE-DENY-SCRIPTS
// (scripts may call DEBUG: Redis's tests use it for DEBUG PROTOCOL's
// replies in Lua; the other noscript commands stay refused, since a
// script holding its shards cannot run a command that needs the whole
// server, the client's connection or another script), POPULATE
// (populate.go), PROTOCOL (a sample reply
// of each RESP type), LOG, ERROR, LOADAOF (the store syncs to disk; what
// it holds is what is served, so there is nothing to load), and
// CHANGE-REPL-ID, QUICKLIST-PACKED-THRESHOLD and REPLYBUFFER, which have
// nothing to do here (no replication IDs, no quicklists, no per-client
// reply buffer to resize) and answer OK as Redis does. RELOAD is the
// scripting package's variant (it reads the function libraries).
type debugCmd struct {
	sub  string
	args [][]byte
	bad  error // an unknown subcommand or bad argument, told only once DEBUG is allowed
	pop  populate
}

var errDebugNotAllowed = command.ErrDebugNotAllowed

func parseDebug(args [][]byte) (command.Runner, error) {
	sub := strings.ToLower(string(args[1]))
	arity := map[string]int{"help": 2, "sleep": 3, "set-active-expire": 3, "protocol": 3, "log": 3, "error": 3,
		"change-repl-id": 2, "loadaof": 2, "populate": -3, "replybuffer": 4, "pause-cron": 3, "quicklist-packed-threshold": 3, "set-disable-deny-scripts": 3}
	n, ok := arity[sub]
	if !ok || n > 0 && len(args) != n || n < 0 && len(args) < -n || sub == "populate" && len(args) > 5 {
		return debugCmd{bad: errDebugSubcommand(args[1])}, nil
	}
	d := debugCmd{sub: sub, args: args}
	switch {
	case sub == "populate":
		d.pop, d.bad = parsePopulate(args)
	case sub == "replybuffer" && command.Is(args[2], "peak-reset-time"):
		if !command.Is(args[3], "never") && !command.Is(args[3], "reset") {
			if _, err := command.Int(args[3]); err != nil {
				d.bad = err
			}
		}
	case sub == "replybuffer" && !command.Is(args[2], "resizing"):
		d.bad = errDebugSubcommand(args[1])
	}
	return d, nil
}

// errDebugSubcommand is Redis's error for an unknown DEBUG subcommand or
// one given the wrong arguments.
func errDebugSubcommand(sub []byte) error {
	return rerr.Errorf("ERR unknown subcommand or wrong number of arguments for '%s'. Try DEBUG HELP.", sub)
}

// debugAllowed applies enable-debug-command to the client.
func debugAllowed(c *command.Ctx) bool { return c.DebugAllowed(c.Client.Conn.Info) }

func (d debugCmd) Run(c *command.Ctx) error {
	if !debugAllowed(c) {
		return errDebugNotAllowed
	}
	if d.bad != nil {
		return d.bad
	}
	w := c.W
	switch d.sub {
	case "help":
		w.SimpleArray([]string{
			"DEBUG <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
			"CHANGE-REPL-ID", "    Accepted: rekv has no replication IDs to change.",
			"DIGEST", "    Outputs a hex signature of the data of every database (40 zeros when empty).",
			"DIGEST-VALUE <key> [<key> ...]", "    Outputs a hex signature of each key's value (type, content, expiry).",
			"ERROR <string>", "    Replies with <string> as an error.",
			"LOG <message>", "    Writes <message> to the server log.",
			"PAUSE-CRON <0|1>", "    Stops (1) or resumes (0) the periodic housekeeping: memory sample, ops meter, client eviction.",
			"POPULATE <count> [<prefix>] [<size>]", "    Creates <count> string keys named <prefix>:<num> (default prefix \"key\"), each",
			"    \"value:<num>\", or with <size> that padded with zero bytes to <size>; existing keys are kept.",
			"PROTOCOL <type>", "    Replies with a sample of a RESP type: string, integer, double, bignum, null, array, set, map,",
			"    attrib, push, verbatim, true, false.",
			"LOADAOF", "    Makes the store durable now: what it holds is what is served, nothing is loaded.",
			"OBJECT <key>", "    Shows low-level information about the key's value: its encoding, serialized length, LRU clock and idle time.",
			"QUICKLIST-PACKED-THRESHOLD <size>", "    Accepted (a memory value under 4gb): rekv keeps no quicklists.",
			"REPLYBUFFER PEAK-RESET-TIME <never|reset|<ms>> | RESIZING <0|1>", "    Accepted: rekv keeps no per-client reply buffer to resize.",
			"RELOAD [MERGE] [NOFLUSH] [NOSAVE]", "    The data is always in the store: OK, but NOFLUSH without MERGE fails once a library or key exists.",
			"SET-ACTIVE-EXPIRE <0|1>", "    Pauses (0) or resumes (1) the collection of expired keys; they still read as expired.",
			"SET-DISABLE-DENY-SCRIPTS <0|1>", "    Lets scripts call DEBUG (1), or not (0); the other commands scripts may not call stay refused.",
			"SLEEP <seconds>", "    This connection waits <seconds> (a decimal) before its reply.",
			"HELP", "    Prints this help.",
		})
	case "sleep":
		secs, _ := strconv.ParseFloat(string(d.args[2]), 64) // Redis's strtod: junk is 0
		dur := time.Duration(secs * float64(time.Second))
		if dur > 0 && c.Tx != nil {
			// Queued in MULTI: EXEC sleeps, holding its shards, as
			// Redis's whole server sleeps.
			time.Sleep(dur)
		} else if dur > 0 {
			c.Client.Session.DeferReply(dur, []byte("+OK\r\n"))
			if c.Waits != nil {
				*c.Waits = dur // timed as the sleep, as in Redis
			}
			return command.ErrReplyLater
		}
		w.OK()
	case "set-active-expire":
		c.Server.Node.SetActiveExpire(string(d.args[2]) != "0")
		w.OK()
	case "pause-cron":
		n, _ := strconv.Atoi(string(d.args[2])) // Redis's atoi: junk is 0
		c.Server.Node.PauseCron(n != 0)
		w.OK()
	case "set-disable-deny-scripts":
		n, _ := strconv.Atoi(string(d.args[2])) // Redis's atoi: junk is 0
		c.Server.Node.SetScriptDebug(n != 0)
		w.OK()
	case "log":
		c.Log.Warn("DEBUG LOG: " + string(d.args[2]))
		w.OK()
	case "error":
		return &rerr.Error{Msg: string(d.args[2])}
	case "change-repl-id", "replybuffer":
		w.OK()
	case "loadaof":
		if err := c.Server.Node.SyncStore(); err != nil {
			return err
		}
		w.OK()
	case "quicklist-packed-threshold":
		if n, ok := resp.ParseMemory(string(d.args[2])); !ok || n > 1<<32-1<<20 {
			return rerr.Errorf("ERR argument must be a memory value bigger than 1 and smaller than 4gb")
		}
		w.OK()
	case "populate":
		return d.pop.run(c)
	case "protocol":
		return debugProtocol(c, strings.ToLower(string(d.args[2])))
	}
	return nil
}

// debugProtocol writes DEBUG PROTOCOL's sample of a RESP type.
func debugProtocol(c *command.Ctx, typ string) error {
	w := c.W
	resp3 := w.Proto() >= 3
	switch typ {
	case "string":
		w.BulkString("Hello World")
	case "integer":
		w.Int(12345)
	case "double":
		w.Double(3.141)
	case "bignum":
		w.BigNumber("1234567999999999999999999999999999999")
	case "null":
		w.Null()
	case "array", "set":
		if typ == "set" {
			w.Set(3)
		} else {
			w.Array(3)
		}
		for i := int64(0); i < 3; i++ {
			w.Int(i)
		}
	case "map":
		w.Map(3)
		for i := int64(0); i < 3; i++ {
			w.Int(i)
			w.Bool(i == 1)
		}
	case "attrib":
		if resp3 {
			w.Raw([]byte("|1\r\n"))
			w.BulkString("key-popularity")
			w.Array(2)
			w.BulkString("key:123")
			w.Int(90)
		}
		w.BulkString("Some real reply following the attribute")
	case "push":
		if !resp3 {
			return rerr.Errorf("ERR RESP2 is not supported by this command")
		}
		w.Push(2)
		w.BulkString("server-cpu-usage")
		w.Int(42)
		w.BulkString("Some real reply following the push reply")
	case "verbatim":
		w.Verbatim("This is a verbatim\nstring")
	case "true", "false":
		w.Bool(typ == "true")
	default:
		return rerr.Errorf("ERR Wrong protocol type name. Please use one of the following: string|integer|double|bignum|null|array|set|map|attrib|push|verbatim|true|false")
	}
	return nil
}
