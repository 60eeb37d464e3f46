package acl

import (
	"sync"
	"time"
)

// LogEntry is one ACL LOG entry: a denied command, key, channel or AUTH.
type LogEntry struct {
	Count      int
	Reason     string // command | key | channel | auth
	Context    string // toplevel | multi | lua
	Object     string
	Username   string
	Created    time.Time
	Updated    time.Time
	ClientInfo string
}

// aclLog keeps the newest entries first; an entry like the newest ones
// (same reason, context, object and user) within a minute counts up
// instead of adding one, as Redis does.
type aclLog struct {
	mu      sync.Mutex
	entries []LogEntry
	max     int
}

// Log records a denial.
func (s *Store) Log(reason, context, object, username, clientInfo string) {
	l := &s.log
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	for i := range l.entries {
		e := &l.entries[i]
		if e.Reason == reason && e.Context == context && e.Object == object && e.Username == username &&
			now.Sub(e.Updated) < time.Minute {
			e.Count++
			e.Updated, e.ClientInfo = now, clientInfo
			entry := *e
			l.entries = append(l.entries[:i], l.entries[i+1:]...)
			l.entries = append([]LogEntry{entry}, l.entries...)
			return
		}
	}
	l.entries = append([]LogEntry{{Count: 1, Reason: reason, Context: context, Object: object, Username: username,
		Created: now, Updated: now, ClientInfo: clientInfo}}, l.entries...)
	if l.max >= 0 && len(l.entries) > l.max {
		l.entries = l.entries[:l.max]
	}
}

// LogEntries returns the newest count entries (count < 0: all).
func (s *Store) LogEntries(count int) []LogEntry {
	l := &s.log
	l.mu.Lock()
	defer l.mu.Unlock()
	if count < 0 || count > len(l.entries) {
		count = len(l.entries)
	}
	return append([]LogEntry(nil), l.entries[:count]...)
}

// LogReset empties the log.
func (s *Store) LogReset() {
	s.log.mu.Lock()
	s.log.entries = nil
	s.log.mu.Unlock()
}

// SetLogMax applies acllog-max-len.
func (s *Store) SetLogMax(n int) {
	s.log.mu.Lock()
	s.log.max = n
	if n >= 0 && len(s.log.entries) > n {
		s.log.entries = s.log.entries[:n]
	}
	s.log.mu.Unlock()
}
