package repl

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	stdnet "net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// pipeLink returns a link reading what master writes, in chunks of the
// given size, and a function that closes it and returns what it sent.
func pipeLink(t *testing.T, master []byte, chunk int) (*link, func() string) {
	t.Helper()
	a, b := stdnet.Pipe()
	t.Cleanup(func() { a.Close(); b.Close() })
	sent := &bytes.Buffer{}
	go func() {
		for len(master) > 0 {
			n := min(chunk, len(master))
			if _, err := b.Write(master[:n]); err != nil {
				return
			}
			master = master[n:]
		}
	}()
	copied := make(chan struct{})
	go func() { _, _ = io.Copy(sent, b); close(copied) }()
	l := &link{conn: a, br: bufio.NewReaderSize(a, 4096), timeout: 5 * time.Second}
	return l, func() string {
		a.Close()
		<-copied
		return sent.String()
	}
}

func TestReceive(t *testing.T) {
	rdbFile := bytes.Repeat([]byte("REDIS0010-body-"), 1000)
	mark := strings.Repeat("a1", 20)
	after := "*1\r\n$4\r\nPING\r\n"
	for _, tc := range []struct {
		name, head, tail string
	}{
		{"length", fmt.Sprintf("$%d\r\n", len(rdbFile)), ""},
		{"diskless", "$EOF:" + mark + "\r\n", mark},
		{"keepalives", "\n\n\n$EOF:" + mark + "\r\n", mark},
	} {
		for _, chunk := range []int{1, 7, 39, 40, 41, 4096, 1 << 20} {
			t.Run(fmt.Sprintf("%s/%d", tc.name, chunk), func(t *testing.T) {
				if chunk == 1 && len(rdbFile) > 2000 && testing.Short() {
					t.Skip()
				}
				l, _ := pipeLink(t, []byte(tc.head+string(rdbFile)+tc.tail+after), chunk)
				f, err := os.Create(filepath.Join(t.TempDir(), "sync.rdb"))
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				var last int64
				n, err := l.receive(f, func(_, read int64) { last = read })
				if err != nil || n != int64(len(rdbFile)) || last != n {
					t.Fatalf("receive: %d bytes (progress %d), %v; want %d", n, last, err, len(rdbFile))
				}
				got, _ := os.ReadFile(f.Name())
				if !bytes.Equal(got, rdbFile) {
					t.Fatalf("the file differs: %d bytes, want %d", len(got), len(rdbFile))
				}
				rest := make([]byte, len(after))
				if _, err := io.ReadFull(l.br, rest); err != nil || string(rest) != after {
					t.Fatalf("what follows the file: %q %v", rest, err)
				}
			})
		}
	}
}

func TestReceiveRefusals(t *testing.T) {
	for _, head := range []string{"-ERR no\r\n", "$EOF:short\r\n", "$-5\r\n", "$x\r\n", "+OK\r\n"} {
		l, _ := pipeLink(t, []byte(head), 1<<10)
		f, _ := os.Create(filepath.Join(t.TempDir(), "sync.rdb"))
		if _, err := l.receive(f, func(int64, int64) {}); !errors.Is(err, errMaster) {
			t.Errorf("%q: %v, want errMaster", head, err)
		}
		f.Close()
	}
	// A transfer cut short is an error, never a file taken as whole.
	l, _ := pipeLink(t, []byte("$100\r\nabc"), 1<<10)
	l.timeout = 200 * time.Millisecond
	f, _ := os.Create(filepath.Join(t.TempDir(), "sync.rdb"))
	defer f.Close()
	if n, err := l.receive(f, func(int64, int64) {}); err == nil {
		t.Fatalf("a cut transfer: %d bytes, no error", n)
	}
}

func TestPsync(t *testing.T) {
	id := strings.Repeat("f", 40)
	for _, tc := range []struct {
		reply string
		want  psyncReply
		err   bool
	}{
		{"+FULLRESYNC " + id + " 1234\r\n", psyncReply{full: true, replID: id, offset: 1234}, false},
		{"+CONTINUE\r\n", psyncReply{}, false},
		{"+CONTINUE " + id + "\r\n", psyncReply{replID: id}, false},
		{"+FULLRESYNC short 1\r\n", psyncReply{}, true},
		{"+FULLRESYNC " + id + " x\r\n", psyncReply{}, true},
		{"-NOMASTERLINK Can't SYNC while not connected with my master\r\n", psyncReply{}, true},
		{"+OK\r\n", psyncReply{}, true},
	} {
		l, sent := pipeLink(t, []byte(tc.reply), 1<<10)
		got, err := l.psync("?", -1, false)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("%q: %+v %v", tc.reply, got, err)
		}
		if s := sent(); !strings.HasPrefix(s, "*3\r\n$5\r\nPSYNC\r\n$1\r\n?\r\n$2\r\n-1\r\n") {
			t.Errorf("sent %q", s)
		}
	}
}

func TestHandshake(t *testing.T) {
	// A master that wants AUTH and does not know REPLCONF capa.
	replies := "-NOAUTH Authentication required.\r\n+OK\r\n+OK\r\n-ERR unknown subcommand\r\n"
	l, sent := pipeLink(t, []byte(replies), 1<<10)
	if err := l.handshake("u", "p", 6380); err != nil {
		t.Fatal(err)
	}
	got := sent()
	want := "*1\r\n$4\r\nPING\r\n*3\r\n$4\r\nAUTH\r\n$1\r\nu\r\n$1\r\np\r\n" +
		"*3\r\n$8\r\nREPLCONF\r\n$14\r\nlistening-port\r\n$4\r\n6380\r\n" +
		"*7\r\n$8\r\nREPLCONF\r\n$4\r\ncapa\r\n$3\r\neof\r\n$4\r\ncapa\r\n$6\r\npsync2\r\n$4\r\ncapa\r\n$15\r\nrekv-namespaces\r\n"
	if got != want {
		t.Fatalf("sent %q\nwant %q", got, want)
	}
	// A wrong password stops the handshake.
	l, _ = pipeLink(t, []byte("+PONG\r\n-WRONGPASS invalid username-password pair\r\n"), 1<<10)
	if err := l.handshake("", "bad", 1); !errors.Is(err, errMaster) || !strings.Contains(err.Error(), "WRONGPASS") {
		t.Fatalf("wrong password: %v", err)
	}
}
