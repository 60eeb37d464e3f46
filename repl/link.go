package repl

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	stdnet "net"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rekv/rekv/resp"
)

// link is one connection to the master.
type link struct {
	conn    stdnet.Conn
	br      *bufio.Reader
	timeout time.Duration // repl-timeout: the longest silence of the master
	wmu     sync.Mutex    // writes (the ACKs come from another goroutine)
}

// errMaster is a refusal by the master.
var errMaster = errors.New("the master refused")

// send writes one command in RESP.
func (l *link) send(args ...string) error {
	w := resp.NewWriter(2)
	w.Array(len(args))
	for _, a := range args {
		w.BulkString(a)
	}
	l.wmu.Lock()
	defer l.wmu.Unlock()
	_ = l.conn.SetWriteDeadline(time.Now().Add(l.timeout))
	_, err := l.conn.Write(w.Bytes())
	return err
}

// line reads one reply line (without its CRLF), skipping the bare
// newlines a master sends to keep the link alive while it prepares an
// RDB file.
func (l *link) line() (string, error) {
	for {
		_ = l.conn.SetReadDeadline(time.Now().Add(l.timeout))
		s, err := l.br.ReadString('\n')
		if err != nil {
			return "", err
		}
		s = strings.TrimRight(s, "\r\n")
		if s != "" {
			return s, nil
		}
	}
}

// call sends a command and reads its one-line reply; an error reply is
// errMaster with the master's words.
func (l *link) call(args ...string) (string, error) {
	if err := l.send(args...); err != nil {
		return "", err
	}
	s, err := l.line()
	if err != nil {
		return "", err
	}
	if strings.HasPrefix(s, "-") {
		return s, fmt.Errorf("%w %s: %s", errMaster, strings.ToUpper(args[0]), s[1:])
	}
	return s, nil
}

// handshake is the replica's side before PSYNC: PING, AUTH when
// masterauth is set, then the replica's port and capabilities.
func (l *link) handshake(user, pass string, port int) error {
	s, err := l.call("PING")
	if err != nil && !strings.HasPrefix(s, "-NOAUTH") && !strings.HasPrefix(s, "-NOPERM") &&
		!strings.HasPrefix(s, "-ERR operation not permitted") {
		return err
	}
	if pass != "" {
		args := []string{"AUTH", pass}
		if user != "" {
			args = []string{"AUTH", user, pass}
		}
		if _, err := l.call(args...); err != nil {
			return err
		}
	}
	// As Redis, errors here are not fatal: an older master may not know
	// them.
	if _, err := l.call("REPLCONF", "listening-port", strconv.Itoa(port)); err != nil && !errors.Is(err, errMaster) {
		return err
	}
	// rekv-namespaces: a rekv master sends every namespace (a Redis
	// master ignores a capability it does not know).
	if _, err := l.call("REPLCONF", "capa", "eof", "capa", "psync2", "capa", "rekv-namespaces"); err != nil && !errors.Is(err, errMaster) {
		return err
	}
	return nil
}

// psyncReply is the master's answer to PSYNC.
type psyncReply struct {
	full   bool   // +FULLRESYNC: an RDB file follows
	replID string // the master's replication ID (CONTINUE: a new one, or "")
	offset int64  // FULLRESYNC: the offset the stream after the file starts at
}

// psync asks to continue replID at offset ("?" and -1: a full sync).
func (l *link) psync(replID string, offset int64, failover bool) (psyncReply, error) {
	args := []string{"PSYNC", replID, strconv.FormatInt(offset, 10)}
	if failover { // the master hands this node's master the role (FAILOVER)
		args = append(args, "FAILOVER")
	}
	s, err := l.call(args...)
	if err != nil {
		return psyncReply{}, err
	}
	f := strings.Fields(s)
	switch {
	case f[0] == "+FULLRESYNC" && len(f) == 3:
		off, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil || len(f[1]) != 40 {
			return psyncReply{}, fmt.Errorf("malformed PSYNC reply %q", s)
		}
		return psyncReply{full: true, replID: f[1], offset: off}, nil
	case f[0] == "+CONTINUE":
		r := psyncReply{}
		if len(f) == 2 && len(f[1]) == 40 {
			r.replID = f[1]
		}
		return r, nil
	}
	return psyncReply{}, fmt.Errorf("unexpected PSYNC reply %q", s)
}

// eofMarkLen is the length of a diskless transfer's end mark.
const eofMarkLen = 40

// receive copies the RDB file the master sends after FULLRESYNC into f:
// "$<length>" and that many bytes, or (diskless) "$EOF:<mark>", the file,
// and the mark again. progress hears the total (-1: unknown) and the
// bytes read so far.
func (l *link) receive(f *os.File, progress func(total, read int64)) (int64, error) {
	head, err := l.line()
	if err != nil {
		return 0, err
	}
	if !strings.HasPrefix(head, "$") {
		return 0, fmt.Errorf("%w: the RDB transfer starts with %q", errMaster, truncate([]byte(head), 64))
	}
	w := bufio.NewWriterSize(f, 1<<20)
	if mark, ok := strings.CutPrefix(head, "$EOF:"); ok {
		if len(mark) != eofMarkLen {
			return 0, fmt.Errorf("%w: malformed end mark %q", errMaster, mark)
		}
		n, err := l.untilMark(w, []byte(mark), progress)
		if err != nil {
			return n, err
		}
		return n, w.Flush()
	}
	size, err := strconv.ParseInt(head[1:], 10, 64)
	if err != nil || size < 0 {
		return 0, fmt.Errorf("%w: malformed RDB length %q", errMaster, head)
	}
	progress(size, 0)
	var n int64
	for n < size {
		_ = l.conn.SetReadDeadline(time.Now().Add(l.timeout))
		m, err := io.CopyN(w, l.br, min(size-n, 1<<20))
		n += m
		progress(size, n)
		if err != nil {
			return n, err
		}
	}
	return n, w.Flush()
}

// untilMark copies bytes up to the end mark, holding back the last
// eofMarkLen-1 bytes written so a mark split across reads is found, and
// leaves whatever follows the mark in the reader.
func (l *link) untilMark(w io.Writer, mark []byte, progress func(total, read int64)) (int64, error) {
	var held []byte // read, not written: could be the start of the mark
	var n int64
	progress(-1, 0)
	for {
		_ = l.conn.SetReadDeadline(time.Now().Add(l.timeout))
		if l.br.Buffered() == 0 {
			if _, err := l.br.Peek(1); err != nil {
				return n, err
			}
		}
		chunk, _ := l.br.Peek(l.br.Buffered())
		joined := append(held, chunk...)
		if i := bytes.Index(joined, mark); i >= 0 {
			if _, err := w.Write(joined[:i]); err != nil {
				return n, err
			}
			n += int64(i)
			progress(-1, n)
			_, _ = l.br.Discard(i + eofMarkLen - len(held))
			return n, nil
		}
		keep := min(len(joined), eofMarkLen-1)
		if _, err := w.Write(joined[:len(joined)-keep]); err != nil {
			return n, err
		}
		n += int64(len(joined) - keep)
		progress(-1, n)
		held = append(held[:0:0], joined[len(joined)-keep:]...)
		_, _ = l.br.Discard(len(chunk))
	}
}
