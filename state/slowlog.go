package state

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/rekv/rekv/actors/command"
)

// SlowLog is SLOWLOG's list: the newest first, at most max entries.
type SlowLog struct {
	mu      sync.Mutex
	entries []command.SlowEntry // newest first
	nextID  int64
	max     int
}

// What an entry keeps of a command's arguments, as Redis.
const (
	slowMaxArgs  = 32
	slowMaxBytes = 128
)

// Record logs a command that ran for d, if d reaches threshold
// (microseconds; negative: never), keeping at most 32 arguments of at
// most 128 bytes each, passwords redacted; addr and name are the
// client's.
func (l *SlowLog) Record(threshold int64, args [][]byte, d time.Duration, addr, name string) {
	us := d.Microseconds()
	if threshold < 0 || us < threshold {
		return
	}
	n := min(len(args), slowMaxArgs)
	kept := make([][]byte, 0, n)
	redact := Redacted(args)
	for i := 0; i < n; i++ {
		a := args[i]
		switch {
		case i == slowMaxArgs-1 && len(args) > slowMaxArgs:
			a = []byte(fmt.Sprintf("... (%d more arguments)", len(args)-slowMaxArgs+1))
		case redact[i]:
			a = []byte("(redacted)")
		case len(a) > slowMaxBytes:
			a = append(append([]byte(nil), a[:slowMaxBytes]...), fmt.Sprintf("... (%d more bytes)", len(a)-slowMaxBytes)...)
		default:
			a = append([]byte(nil), a...)
		}
		kept = append(kept, a)
	}
	e := command.SlowEntry{Time: time.Now().Unix(), Micros: us, Args: kept, Addr: addr, Name: name}
	l.mu.Lock()
	defer l.mu.Unlock()
	e.ID = l.nextID
	l.nextID++
	l.entries = append([]command.SlowEntry{e}, l.entries...)
	if len(l.entries) > l.max {
		l.entries = l.entries[:l.max]
	}
}

// SetMax sets slowlog-max-len, dropping the oldest entries past it.
func (l *SlowLog) SetMax(n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.max = n
	if len(l.entries) > n {
		l.entries = l.entries[:n]
	}
}

// Slowlog returns the newest count entries (count < 0: all).
func (l *SlowLog) Slowlog(count int) []command.SlowEntry {
	l.mu.Lock()
	defer l.mu.Unlock()
	if count < 0 || count > len(l.entries) {
		count = len(l.entries)
	}
	return append([]command.SlowEntry(nil), l.entries[:count]...)
}

// SlowlogLen returns how many entries the log holds.
func (l *SlowLog) SlowlogLen() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.entries)
}

// SlowlogReset empties the log.
func (l *SlowLog) SlowlogReset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.entries = nil
}

// Redacted marks the arguments of a command line that are passwords
// (AUTH's, HELLO's and MIGRATE's AUTH and AUTH2), which the slow log and
// MONITOR do not show.
func Redacted(args [][]byte) []bool {
	r := make([]bool, len(args))
	if len(args) == 0 {
		return r
	}
	name := strings.ToLower(string(args[0]))
	switch name {
	case "auth":
		for i := 1; i < len(args); i++ {
			r[i] = true
		}
	case "hello", "migrate":
		for i := 1; i < len(args); i++ {
			switch strings.ToLower(string(args[i])) {
			case "auth":
				n := 2
				if name == "migrate" {
					n = 1
				}
				for j := i + 1; j <= i+n && j < len(args); j++ {
					r[j] = true
				}
			case "auth2":
				for j := i + 1; j <= i+2 && j < len(args); j++ {
					r[j] = true
				}
			}
		}
	}
	return r
}
