package main

import (
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/rekv/rekv/node"
)

func freePort(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

// startRun runs the server as main does, with sig as its signals, on a
// data directory whose storage then hangs on close: it is removed, so
// Badger cannot flush what it holds and retries for ever.
func startRun(t *testing.T, timeout string) (sig chan os.Signal, code chan int) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "data")
	sig, code = make(chan os.Signal, 2), make(chan int, 1)
	ready := make(chan *node.Node, 1)
	args := []string{"--port", freePort(t), "--dir", dir}
	env := []string{"REKV_SERVER__SHUTDOWN_TIMEOUT=" + timeout, "REKV_LOG__LEVEL=error"}
	go func() { code <- run(args, env, sig, ready) }()
	var n *node.Node
	select {
	case n = <-ready:
	case c := <-code:
		t.Fatalf("run exited with %d", c)
	case <-time.After(30 * time.Second):
		t.Fatal("server did not start")
	}
	c, err := net.Dial("tcp", n.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1\r\nv\r\n")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 5)
	if _, err := c.Read(buf); err != nil || string(buf) != "+OK\r\n" {
		t.Fatalf("SET: %q %v", buf, err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	return sig, code
}

// TestShutdownBoundedWhenStorageHangs: SIGTERM with storage that cannot
// close ends within shutdown-timeout, exiting non-zero.
func TestShutdownBoundedWhenStorageHangs(t *testing.T) {
	sig, code := startRun(t, "1s")
	start := time.Now()
	sig <- syscall.SIGTERM
	select {
	case c := <-code:
		if c != 1 {
			t.Fatalf("exit code %d, want 1", c)
		}
		if d := time.Since(start); d < 900*time.Millisecond || d > 5*time.Second {
			t.Fatalf("stopped after %v with a 1s shutdown-timeout", d)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("SIGTERM did not end the server within 20 s")
	}
}

// TestShutdownSecondSignal: a second signal exits at once.
func TestShutdownSecondSignal(t *testing.T) {
	sig, code := startRun(t, "60s")
	sig <- syscall.SIGTERM
	time.Sleep(200 * time.Millisecond)
	start := time.Now()
	sig <- syscall.SIGINT
	select {
	case c := <-code:
		if c != 1 || time.Since(start) > 2*time.Second {
			t.Fatalf("exit code %d after %v", c, time.Since(start))
		}
	case <-time.After(20 * time.Second):
		t.Fatal("a second signal did not end the server")
	}
}

// TestRestartBindsAtOnce: a server stopped by SIGTERM while clients are
// connected can be started again on the same port at once. The stop closes
// the connections from the server's side, leaving them in TIME_WAIT for a
// minute; without SO_REUSEADDR on the listener the new process could not
// bind ("address already in use") until they expired.
func TestRestartBindsAtOnce(t *testing.T) {
	port, metricsPort := freePort(t), freePort(t)
	dir := t.TempDir()
	args := []string{"--port", port, "--dir", dir, "--metrics", "127.0.0.1:" + metricsPort}
	env := []string{"REKV_LOG__LEVEL=error"}
	start := func() (chan os.Signal, chan int) {
		sig, code, ready := make(chan os.Signal, 2), make(chan int, 1), make(chan *node.Node, 1)
		go func() { code <- run(args, env, sig, ready) }()
		select {
		case <-ready:
		case c := <-code:
			t.Fatalf("run exited with %d", c)
		case <-time.After(30 * time.Second):
			t.Fatal("server did not start")
		}
		return sig, code
	}
	sig, code := start()
	for i := 0; i < 8; i++ { // connected when the server stops
		c, err := net.Dial("tcp", "127.0.0.1:"+port)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if _, err := c.Write([]byte("*1\r\n$4\r\nPING\r\n")); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 7)
		if _, err := c.Read(buf); err != nil || string(buf) != "+PONG\r\n" {
			t.Fatalf("PING: %q %v", buf, err)
		}
	}
	// A kept-alive scrape of the metrics listener (Go's listeners set
	// SO_REUSEADDR themselves, as the TLS one does).
	resp, err := http.Get("http://127.0.0.1:" + metricsPort + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	sig <- syscall.SIGTERM
	if c := <-code; c != 0 {
		t.Fatalf("first run exited with %d", c)
	}
	stopped := time.Now()
	sig, code = start()
	if d := time.Since(stopped); d > time.Second {
		t.Errorf("the restart took %v", d)
	}
	sig <- syscall.SIGTERM
	if c := <-code; c != 0 {
		t.Fatalf("second run exited with %d", c)
	}
}
