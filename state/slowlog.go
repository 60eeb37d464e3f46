package state

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/rekv/rekv/actors/command"
)

// SlowLog is SLOWLOG's list of at most max entries, in a ring: putting
// each new entry first in a slice copied the whole list on every record
// (3.5% of the CPU under an MSET load whose commands passed the
// threshold).
type SlowLog struct {
	mu     sync.Mutex
	ring   []command.SlowEntry // len max once used; ring[head] is the oldest
	head   int
	n      int // entries held
	nextID int64
	max    int
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
	if l.max <= 0 {
		return
	}
	if len(l.ring) != l.max {
		l.ring = make([]command.SlowEntry, l.max)
	}
	l.ring[(l.head+l.n)%l.max] = e
	if l.n < l.max {
		l.n++
	} else {
		l.head = (l.head + 1) % l.max
	}
}

// newest returns the entries newest first, at most count.
func (l *SlowLog) newest(count int) []command.SlowEntry {
	count = min(count, l.n)
	out := make([]command.SlowEntry, count)
	for i := range out {
		out[i] = l.ring[(l.head+l.n-1-i)%len(l.ring)]
	}
	return out
}

// SetMax sets slowlog-max-len, dropping the oldest entries past it.
func (l *SlowLog) SetMax(n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	kept := l.newest(n) // the newest n, newest first
	l.max, l.ring, l.head, l.n = n, nil, 0, len(kept)
	if n > 0 && len(kept) > 0 {
		l.ring = make([]command.SlowEntry, n)
		for i, e := range kept {
			l.ring[len(kept)-1-i] = e
		}
	}
}

// Slowlog returns the newest count entries (count < 0: all).
func (l *SlowLog) Slowlog(count int) []command.SlowEntry {
	l.mu.Lock()
	defer l.mu.Unlock()
	if count < 0 {
		count = l.n
	}
	return l.newest(count)
}

// SlowlogLen returns how many entries the log holds.
func (l *SlowLog) SlowlogLen() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.n
}

// SlowlogReset empties the log.
func (l *SlowLog) SlowlogReset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	clear(l.ring)
	l.head, l.n = 0, 0
}

// Redacted marks the arguments of a command line that are passwords
// (AUTH's, HELLO's and MIGRATE's AUTH and AUTH2, every argument of ACL
// SETUSER, the values CONFIG SET gives masterauth, masteruser and
// requirepass: Redis's sensitive configs) or tokens (NAMESPACE ADD and
// SET's), which the slow log and MONITOR do not show.
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
	case "namespace":
		if len(args) > 3 {
			r[3] = true
		}
	case "acl":
		if len(args) >= 3 && strings.EqualFold(string(args[1]), "setuser") {
			for i := 2; i < len(args); i++ {
				r[i] = true
			}
		}
	case "config":
		if len(args) >= 2 && strings.EqualFold(string(args[1]), "set") {
			for i := 2; i+1 < len(args); i += 2 {
				switch strings.ToLower(string(args[i])) {
				case "masterauth", "masteruser", "requirepass":
					r[i+1] = true
				}
			}
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
