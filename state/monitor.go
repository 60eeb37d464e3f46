package state

import (
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rekv/rekv/actors/command"
)

// MONITOR.
//
// Every command the server runs is shown to the clients that sent MONITOR,
// one line each as Redis 7 writes it: +<unix seconds.micros> [<db>
// <client address>|lua] "arg" ..., arguments quoted like Redis's
// sdscatrepr, passwords (AUTH, HELLO AUTH, MIGRATE AUTH/AUTH2) replaced by
// "(redacted)". As in Redis, commands refused before running (unknown,
// wrong arity, NOAUTH) are not shown, nor administrative ones (CONFIG,
// CLIENT KILL/LIST/PAUSE/UNPAUSE/UNBLOCK/NO-EVICT, MONITOR); a command
// queued in MULTI is shown when EXEC runs it, before EXEC; commands a
// script calls appear after the script with "lua" as their source. The
// line is written when the command is dispatched to its shard, so lines of
// different clients appear in arrival order, and a script that is re-run
// (a conflict, or a key of another shard) shows its calls again.

// Monitors are the clients that sent MONITOR.
type Monitors struct {
	mu  sync.Mutex
	set map[Subscriber]struct{}
	n   atomic.Int32
}

// AddMonitor makes s a monitor.
func (m *Monitors) AddMonitor(s Subscriber) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.set == nil {
		m.set = map[Subscriber]struct{}{}
	}
	if _, ok := m.set[s]; !ok {
		m.set[s] = struct{}{}
		m.n.Add(1)
	}
}

// RemoveMonitor makes s a monitor no more.
func (m *Monitors) RemoveMonitor(s Subscriber) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.set[s]; ok {
		delete(m.set, s)
		m.n.Add(-1)
	}
}

// Monitoring reports whether there are monitors: the caller skips the
// work of showing commands otherwise.
func (m *Monitors) Monitoring() bool { return m.n.Load() > 0 }

// Unmonitored reports the commands monitors do not see (Spec flag
// NoMonitor: Redis's admin commands, and MONITOR itself).
func Unmonitored(spec *command.Spec) bool { return spec.Flags&command.NoMonitor != 0 }

// Monitor shows a command run in db to the monitors; source is the
// client's address, or "lua" for a script's calls. A named namespace's
// database shows as its clients number it (0-15).
func (m *Monitors) Monitor(db int, source string, args [][]byte) {
	if m.n.Load() == 0 {
		return
	}
	now := time.Now()
	b := make([]byte, 0, 64)
	b = append(b, '+')
	b = strconv.AppendInt(b, now.Unix(), 10)
	b = append(b, '.')
	us := strconv.Itoa(now.Nanosecond() / 1000)
	b = append(b, strings.Repeat("0", 6-len(us))+us...)
	b = append(b, " ["...)
	b = strconv.AppendInt(b, int64(command.UserDB(db)), 10)
	b = append(b, ' ')
	b = append(b, source...)
	b = append(b, ']')
	redact := Redacted(args)
	for i, a := range args {
		b = append(b, ' ')
		if redact[i] {
			b = append(b, `"(redacted)"`...)
			continue
		}
		b = appendRepr(b, a)
	}
	b = append(b, '\r', '\n')
	m.mu.Lock()
	defer m.mu.Unlock()
	for s := range m.set {
		s.Deliver(b)
	}
}

// appendRepr quotes b as Redis's sdscatrepr does.
func appendRepr(dst, b []byte) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for _, c := range b {
		switch c {
		case '\\', '"':
			dst = append(dst, '\\', c)
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\a':
			dst = append(dst, '\\', 'a')
		case '\b':
			dst = append(dst, '\\', 'b')
		default:
			if c >= 0x20 && c < 0x7f {
				dst = append(dst, c)
			} else {
				dst = append(dst, '\\', 'x', hex[c>>4], hex[c&15])
			}
		}
	}
	return append(dst, '"')
}
