package integration

import (
	"strings"
	"testing"
)

// guardStep is one command of a write-guard sequence, sent on connection
// a (0) or b (1), whose reply must be Redis's.
type guardStep struct {
	conn int
	args []string
}

// guardSteps turns lines "[b ]command args..." into steps (arguments split
// at spaces; "\n" in an argument stands for a newline, "\s" for a space).
func guardSteps(lines ...string) []guardStep {
	var out []guardStep
	for _, l := range lines {
		st := guardStep{}
		if rest, ok := strings.CutPrefix(l, "b "); ok {
			st.conn, l = 1, rest
		}
		for _, a := range strings.Fields(l) {
			st.args = append(st.args, strings.NewReplacer(`\n`, "\n", `\s`, " ").Replace(a))
		}
		out = append(out, st)
	}
	return out
}

// TestWriteGuardsInScriptsAndExec: the refusals Redis gives a write — OOM
// over maxmemory, NOREPLICAS under min-replicas-to-write — also hold for
// what scripts and EXEC run, as redis-server 7.0 decides them: a script
// with flags (a shebang, a function) is judged as it starts by its flags
// (no-writes, allow-oom); one without is judged at its first write
// call; EXEC by its queued commands (a setting changed between MULTI and
// EXEC aborts it); under OOM MULTI queues nothing. Before, EVAL and EXEC
// ran the writes.
func TestWriteGuardsInScriptsAndExec(t *testing.T) {
	lib := `#!lua name=g\n` +
		`redis.register_function('w',function(k)return(redis.call('set',k[1],'1'))end)\n` +
		`redis.register_function{function_name='wo',callback=function(k)return(redis.call('set',k[1],'1'))end,flags={'allow-oom'}}\n` +
		`redis.register_function{function_name='r',callback=function(k)return(redis.call('get',k[1]))end,flags={'no-writes'}}`
	scripts := []string{
		"EVAL return(redis.call('set','x','1')) 1 x",
		"EVAL return(redis.call('get','x')) 1 x",
		"EVAL redis.call('get','x')return(redis.pcall('set','x','1')) 1 x",
		"EVAL #!lua\\nreturn(redis.call('get','x')) 1 x",
		"EVAL #!lua\\sflags=no-writes\\nreturn(redis.call('get','x')) 1 x",
		"EVAL #!lua\\sflags=allow-oom\\nreturn(redis.call('set','x','2')) 1 x",
		"EVAL redis.call('del','x')return(redis.call('set','x','3')) 1 x",
		"FCALL w 1 x", "FCALL wo 1 x", "FCALL r 1 x", "FCALL_RO r 1 x",
		"EVAL_RO return(redis.call('get','x')) 1 x",
		"MULTI", "GET x", "EXEC",
		"MULTI", "SET x 4", "EXEC",
		"GET x",
	}
	var seq []string
	seq = append(seq, "FLUSHALL", "FUNCTION FLUSH", "FUNCTION LOAD "+lib, "SET x 0")
	for _, setting := range [][2]string{{"min-replicas-to-write", "1"}, {"maxmemory", "1"}} {
		// Set between MULTI and EXEC: EXEC aborts (a write queued) or runs
		// (only reads).
		seq = append(seq, "MULTI", "SET x 5", "GET x", "b CONFIG SET "+setting[0]+" "+setting[1], "EXEC",
			"b CONFIG SET "+setting[0]+" 0", "MULTI", "GET x", "b CONFIG SET "+setting[0]+" "+setting[1], "EXEC")
		seq = append(seq, scripts...)
		seq = append(seq, "b CONFIG SET "+setting[0]+" 0", "GET x")
	}
	steps := guardSteps(seq...)
	red := redisServer(t)
	ra, rb := dialRaw(t, red), dialRaw(t, red)
	want := make([]string, len(steps))
	for i, st := range steps {
		want[i] = []*raw{ra, rb}[st.conn].do(st.args...)
	}
	forEachDriver(t, func(t *testing.T, addr string) {
		a, b := dialRaw(t, addr), dialRaw(t, addr)
		for i, st := range steps {
			if got := []*raw{a, b}[st.conn].do(st.args...); got != want[i] {
				t.Errorf("%q\n redis: %q\n  rekv: %q", st.args, want[i], got)
			}
		}
	})
}
