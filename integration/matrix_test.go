package integration

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/command/all"
	"github.com/rekv/rekv/actors/command/facts"
	"github.com/rekv/rekv/conf"
)

// The context matrix: every registered command, with a few argument
// shapes each (made from its documented arguments), run in every context
// a client can put it in — alone in RESP2 and RESP3, queued in
// MULTI/EXEC, called by EVAL and by FCALL, after CLIENT REPLY OFF and
// after CLIENT REPLY SKIP — with DEBUG enabled. What it checks is that
// nothing panics: INFO's recovered_panics stays 0 (a contained panic is
// still a defect), no reply is "internal error", and the server answers
// PING on a fresh connection after each command's runs. Replies are not compared (the differential scripts
// do that); each run has a fresh connection, so a command that changes
// its connection (SUBSCRIBE, MONITOR, QUIT, HELLO, SYNC) changes nothing
// else. It would have caught MULTI; DEBUG SLEEP 0.2; EXEC, which ended
// the process.

// matrixKey is the key every shape uses: one hash tag, so a command's
// keys share a shard and a slot.
const matrixKey = "{m}k"

// matrixLeftOut are the commands the matrix does not run, and why.
var matrixLeftOut = map[string]string{
	"shutdown": "it stops the server under test",
}

// matrixAfter are commands run after a command's runs to undo what it
// did to the server as a whole (not its connection).
var matrixAfter = map[string][][]string{
	"replicaof":    {{"REPLICAOF", "NO", "ONE"}},
	"slaveof":      {{"REPLICAOF", "NO", "ONE"}},
	"client|pause": {{"CLIENT", "UNPAUSE"}},
	"failover":     {{"FAILOVER", "ABORT"}},
}

// matrixExtra are shapes the documentation does not reach: DEBUG's
// subcommands, connection commands inside MULTI and scripts.
var matrixExtra = [][]string{
	{"DEBUG", "SLEEP", "0"}, {"DEBUG", "SLEEP", "0.01"}, {"DEBUG", "PROTOCOL", "push"}, {"DEBUG", "PROTOCOL", "attrib"},
	{"DEBUG", "PROTOCOL", "verbatim"}, {"DEBUG", "SET-ACTIVE-EXPIRE", "1"}, {"DEBUG", "RELOAD"}, {"DEBUG", "ERROR", "E x"},
	{"DEBUG", "LOG", "x"}, {"DEBUG", "CHANGE-REPL-ID"}, {"DEBUG", "HELP"},
	{"CLIENT", "REPLY", "OFF"}, {"CLIENT", "REPLY", "SKIP"}, {"CLIENT", "REPLY", "ON"},
	{"SUBSCRIBE", "c"}, {"PSUBSCRIBE", "*"}, {"SSUBSCRIBE", matrixKey}, {"UNSUBSCRIBE"}, {"MONITOR"},
	{"WATCH", matrixKey}, {"UNWATCH"}, {"MULTI"}, {"EXEC"}, {"DISCARD"},
	{"SELECT", "1"}, {"SWAPDB", "0", "1"}, {"HELLO", "3"}, {"HELLO", "2"}, {"RESET"}, {"QUIT"},
	{"WAIT", "0", "1"}, {"WAITAOF", "0", "0", "1"}, {"SAVE"}, {"BGSAVE"},
	{"BLPOP", matrixKey, "0.01"}, {"XREAD", "BLOCK", "1", "STREAMS", matrixKey, "$"},
	{"XREADGROUP", "GROUP", "g", "c", "BLOCK", "1", "STREAMS", matrixKey, ">"},
	{"FUNCTION", "FLUSH"}, {"SCRIPT", "FLUSH"}, {"FLUSHALL"}, {"FLUSHDB", "ASYNC"},
	{"EVAL", "return redis.call('ping')", "0"}, {"FCALL", "m", "0", "PING"},
}

// matrixContexts are the ways a command line reaches the server. Each
// returns the lines to send; the runner adds a PING to tell its end.
var matrixContexts = []struct {
	name  string
	lines func(cmd []string) [][]string
}{
	{"resp2", func(cmd []string) [][]string { return [][]string{cmd} }},
	{"resp3", func(cmd []string) [][]string { return [][]string{{"HELLO", "3"}, cmd} }},
	{"multi", func(cmd []string) [][]string { return [][]string{{"MULTI"}, cmd, {"EXEC"}} }},
	{"multi-resp3", func(cmd []string) [][]string { return [][]string{{"HELLO", "3"}, {"MULTI"}, cmd, {"EXEC"}} }},
	{"eval", func(cmd []string) [][]string {
		return [][]string{append([]string{"EVAL", "return redis.pcall(unpack(ARGV))", "0"}, cmd...)}
	}},
	{"eval-resp3", func(cmd []string) [][]string {
		return [][]string{{"HELLO", "3"}, append([]string{"EVAL", "redis.setresp(3) return redis.pcall(unpack(ARGV))", "0"}, cmd...)}
	}},
	{"fcall", func(cmd []string) [][]string { return [][]string{append([]string{"FCALL", "m", "0"}, cmd...)} }},
	{"reply-off", func(cmd []string) [][]string {
		return [][]string{{"CLIENT", "REPLY", "OFF"}, cmd, {"CLIENT", "REPLY", "ON"}}
	}},
	{"reply-skip", func(cmd []string) [][]string { return [][]string{{"CLIENT", "REPLY", "SKIP"}, cmd} }},
}

const matrixLibrary = "#!lua name=matrix\nredis.register_function('m', function(keys, args) return redis.pcall(unpack(args)) end)"

// matrixShapes returns the command lines to run for spec (name is its
// full name): bare, with the required arguments, with every argument
// (the first and the last choice of each oneof), and the required ones
// all "x" (parse errors).
func matrixShapes(spec *command.Spec) [][]string {
	head := strings.Split(strings.ToUpper(spec.FullName()), "|")
	var docArgs []facts.Arg
	if spec.Doc != nil {
		docArgs = spec.Doc.Arguments
	}
	var shapes [][]string
	add := func(rest []string) { shapes = append(shapes, append(append([]string{}, head...), rest...)) }
	add(nil)
	if docArgs == nil {
		// No documentation (rekv's own commands): the arity's count of
		// the key, then "1"s.
		n := max(spec.Arity, -spec.Arity) - len(head)
		var rest, junk []string
		for i := 0; i < n; i++ {
			rest, junk = append(rest, matrixKey), append(junk, "x")
		}
		add(rest)
		add(append(rest, "1", "1"))
		add(junk)
		return shapes
	}
	add(renderArgs(docArgs, false, false))
	add(renderArgs(docArgs, true, false))
	add(renderArgs(docArgs, true, true))
	junk := renderArgs(docArgs, false, false)
	for i := range junk {
		junk[i] = "x"
	}
	add(junk)
	return shapes
}

// renderArgs makes argument values: optional ones only with full, a
// oneof's last choice with last (else its first).
func renderArgs(args []facts.Arg, full, last bool) []string {
	var out []string
	for _, a := range args {
		optional := false
		for _, f := range a.Flags {
			optional = optional || f == "optional"
		}
		if optional && !full {
			continue
		}
		if a.Token != "" && a.Type != "pure-token" {
			out = append(out, a.Token)
		}
		out = append(out, renderArg(a, full, last)...)
	}
	return out
}

func renderArg(a facts.Arg, full, last bool) []string {
	name := strings.ToLower(a.Name)
	switch a.Type {
	case "key":
		return []string{matrixKey}
	case "pure-token":
		return []string{a.Token}
	case "integer", "unix-time":
		return []string{"1"}
	case "double":
		return []string{"0.01"} // a blocking command's timeout: 10 ms
	case "pattern":
		return []string{"*"}
	case "oneof":
		if len(a.Arguments) == 0 {
			return nil
		}
		pick := a.Arguments[0]
		if last {
			pick = a.Arguments[len(a.Arguments)-1]
		}
		return renderArgs([]facts.Arg{stripOptional(pick)}, full, last)
	case "block":
		return renderArgs(a.Arguments, full, last)
	}
	switch {
	case strings.Contains(name, "host") || strings.Contains(name, "ip"):
		return []string{"127.0.0.1"}
	case strings.Contains(name, "port"):
		return []string{"1"}
	}
	return []string{"v"}
}

func stripOptional(a facts.Arg) facts.Arg {
	var flags []string
	for _, f := range a.Flags {
		if f != "optional" {
			flags = append(flags, f)
		}
	}
	a.Flags = flags
	return a
}

// matrixConn is a connection the matrix runs command lines on, one
// context after another: RESET between them gives each a connection in
// its initial state (RESP2, replies on, no MULTI, subscription, MONITOR
// or WATCH, database 0). A run that closed it (QUIT) or took it over
// (SYNC) leaves it nil, and the next dials again.
type matrixConn struct {
	t    *testing.T
	addr string
	c    *raw
}

// run sends lines, RESET and a PING and reads what comes back until the
// PING's answer, the connection's end or a short silence (a SYNC's
// stream). It returns the replies.
func (m *matrixConn) run(lines [][]string) string {
	if m.c == nil {
		m.c = dialRaw(m.t, m.addr)
	}
	c := m.c
	var all strings.Builder
	for _, l := range lines {
		all.WriteString(encode(l...))
	}
	all.WriteString(encode("RESET") + encode("PING", "matrix-end"))
	if _, err := c.conn.Write([]byte(all.String())); err != nil {
		m.close()
		return ""
	}
	var out strings.Builder
	for {
		_ = c.conn.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
		s, err := readReply(c.r)
		out.WriteString(s)
		if err != nil {
			m.close()
			return out.String()
		}
		if strings.Contains(s, "matrix-end") {
			return out.String()
		}
	}
}

func (m *matrixConn) close() {
	if m.c != nil {
		m.c.conn.Close()
		m.c = nil
	}
}

// TestContextMatrix runs the matrix on each driver.
func TestContextMatrix(t *testing.T) {
	reg := all.Registry(nil)
	var cmds [][]string
	var after [][][]string
	seen := map[string]bool{} // shapes that come out the same run once
	for _, spec := range reg.All() {
		specs := []*command.Spec{spec}
		if len(spec.Subcommands) > 0 {
			specs = spec.Subcommands
		}
		for _, s := range specs {
			if _, skip := matrixLeftOut[s.FullName()]; skip || s.Parse == nil {
				continue
			}
			for _, shape := range matrixShapes(s) {
				if k := strings.Join(shape, "\x00"); !seen[k] {
					seen[k] = true
					cmds, after = append(cmds, shape), append(after, matrixAfter[s.FullName()])
				}
			}
		}
	}
	for _, extra := range matrixExtra {
		cmds, after = append(cmds, extra), append(after, nil)
	}
	t.Logf("%d command lines in %d contexts", len(cmds), len(matrixContexts))
	for _, d := range drivers() {
		t.Run(d, func(t *testing.T) {
			n, tail := startNodeWith(t, d, func(c *conf.Config) {
				c.Server.Redis = map[string]string{"enable-debug-command": "yes"}
			})
			addr := n.Addr()
			var next atomic.Int64
			var wg sync.WaitGroup
			for w := 0; w < 4; w++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					mc := &matrixConn{t: t, addr: addr}
					defer mc.close()
					for {
						i := int(next.Add(1) - 1)
						if i >= len(cmds) || t.Failed() {
							return
						}
						for _, ctx := range matrixContexts {
							// An internal error is a defect too: a panic
							// contained, or a reply out of place.
							got := mc.run(ctx.lines(cmds[i]))
							if strings.Contains(got, "Function not found") {
								// A FUNCTION FLUSH (this line's or another
								// worker's) removed the library: load it again.
								mc.run([][]string{{"FUNCTION", "LOAD", "REPLACE", matrixLibrary}})
								got = mc.run(ctx.lines(cmds[i]))
							}
							if strings.Contains(got, "internal error") {
								t.Errorf("%s %q: %q", ctx.name, cmds[i], got)
							}
						}
						for _, undo := range after[i] {
							mc.run([][]string{undo})
						}
						if err := matrixHealthy(t, addr); err != nil {
							t.Errorf("after %q in every context: %v\n%s", cmds[i], err, tail.String())
							return
						}
					}
				}()
			}
			wg.Wait()
		})
	}
}

// matrixHealthy asks a fresh connection for PING and for INFO's
// recovered_panics, which must be 0.
func matrixHealthy(t *testing.T, addr string) error {
	c := dialRaw(t, addr)
	defer c.conn.Close()
	_ = c.conn.SetDeadline(time.Now().Add(20 * time.Second))
	c.write(encode("PING") + encode("INFO", "stats"))
	pong, err := readReply(c.r)
	if err != nil || pong != "+PONG\r\n" {
		return fmt.Errorf("PING: %q %v", pong, err)
	}
	info, err := readReply(c.r)
	if err != nil {
		return fmt.Errorf("INFO: %v", err)
	}
	if !strings.Contains(info, "\r\nrecovered_panics:0\r\n") {
		i := strings.Index(info, "recovered_panics")
		return fmt.Errorf("a command panicked (INFO: %.30s)", info[max(i, 0):])
	}
	return nil
}
