package integration

import (
	"sync"
	"testing"
)

// logTail keeps the last logTailMax bytes a test server logged, so that
// a failed test shows what the server said (the log is otherwise
// dropped: tests start many servers).
type logTail struct {
	mu  sync.Mutex
	buf []byte
}

const logTailMax = 16 << 10

func (l *logTail) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, p...)
	if over := len(l.buf) - logTailMax; over > 0 {
		l.buf = append(l.buf[:0], l.buf[over:]...)
	}
	return len(p), nil
}

// report logs the tail when t failed.
func (l *logTail) report(t *testing.T) {
	if !t.Failed() {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.buf) > 0 {
		t.Logf("the server's log (last %d bytes):\n%s", len(l.buf), l.buf)
	}
}

// String returns what the tail holds.
func (l *logTail) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return string(l.buf)
}
