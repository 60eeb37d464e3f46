package main

import (
	"bufio"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// mainChildEnv makes the test binary run main's run with the arguments in
// it (space-separated) instead of tests.
const mainChildEnv = "REKVTEST_MAIN_CHILD"

func TestMain(m *testing.M) {
	if args := os.Getenv(mainChildEnv); args != "" {
		sig := make(chan os.Signal, 2)
		signalNotify(sig)
		os.Exit(run(strings.Fields(args), os.Environ(), sig, nil))
	}
	os.Exit(m.Run())
}

// TestShutdownOnFrozenFileSystem: SIGTERM while the data directory's file
// system is frozen (fsfreeze, as a snapshot tool does). The store cannot
// close, so once shutdown_timeout has passed the server logs it and
// exits. Linux then holds the exiting process (a zombie, or in
// uninterruptible sleep in its exit) while a thread stuck in a write to
// the frozen file system keeps its files, the listening socket too, until
// the file system is thawed; then it is gone. rekv cannot do more: that thread is the kernel's. It needs root,
// mkfs.ext4, a loop device and fsfreeze (CI has them).
func TestShutdownOnFrozenFileSystem(t *testing.T) {
	if testing.Short() {
		t.Skip("mounts a file system and starts a server process")
	}
	base := t.TempDir()
	img, mnt := filepath.Join(base, "fs.img"), filepath.Join(base, "fs")
	must := func(name string, args ...string) {
		t.Helper()
		if out, err := exec.Command(name, args...).CombinedOutput(); err != nil {
			t.Skipf("%s %v: %v %s (needs root, mkfs.ext4, loop devices, fsfreeze)", name, args, err, out)
		}
	}
	if err := os.MkdirAll(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	must("truncate", "-s", "512M", img)
	must("mkfs.ext4", "-q", "-F", img)
	must("mount", "-o", "loop", img, mnt)
	t.Cleanup(func() {
		_ = exec.Command("fsfreeze", "-u", mnt).Run()
		_ = exec.Command("umount", "-l", mnt).Run()
	})
	port := freePort(t)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), mainChildEnv+"=--port "+port+" --dir "+filepath.Join(mnt, "data"),
		"REKV_SERVER__SHUTDOWN_TIMEOUT=1s", "REKV_STORAGE__BADGER__MIN_FREE_MIB=16")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 100)
	go func() {
		s := bufio.NewScanner(stderr)
		for s.Scan() {
			lines <- s.Text()
		}
		close(lines)
	}()
	waitLine := func(what string, d time.Duration) {
		t.Helper()
		deadline := time.After(d)
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("the server's log ended before %q", what)
				}
				if strings.Contains(l, what) {
					return
				}
			case <-deadline:
				t.Fatalf("no %q in the server's log within %v", what, d)
			}
		}
	}
	waitLine("rekv ready", 30*time.Second)
	conn, err := net.Dial("tcp", "127.0.0.1:"+port)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	r := bufio.NewReader(conn)
	set := []byte("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1\r\nv\r\n")
	for i := 0; i < 1000; i++ {
		if _, err := conn.Write(set); err != nil {
			t.Fatal(err)
		}
		if l, err := r.ReadString('\n'); err != nil || l != "+OK\r\n" {
			t.Fatalf("SET: %q %v", l, err)
		}
	}
	must("fsfreeze", "-f", mnt)
	checkKilledWriter(t, mnt)
	_, _ = conn.Write(set) // its commit blocks in the frozen file system
	time.Sleep(1500 * time.Millisecond)
	start := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	waitLine("shutdown did not finish within shutdown-timeout", 10*time.Second)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the timeout was logged %v after SIGTERM, with shutdown_timeout 1s", d)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	time.Sleep(500 * time.Millisecond)
	select {
	case <-exited:
		t.Logf("the process was gone %v after SIGTERM", time.Since(start))
	default:
		state, exiting := procExiting(t, cmd.Process.Pid)
		if !exiting {
			t.Fatalf("after the timeout the process is %q and not exiting", state)
		}
		t.Logf("after the timeout the process is exiting (%s) until the thaw", state)
	}
	must("fsfreeze", "-u", mnt)
	select {
	case <-exited:
	case <-time.After(20 * time.Second):
		t.Fatal("the process did not end after the file system was thawed")
	}
}

// checkKilledWriter checks procExiting on the case it must see through: a
// process whose only thread is stuck writing to the frozen file system
// (state D) and then killed is exiting, though its stat shows D without
// PF_EXITING until the thaw.
func checkKilledWriter(t *testing.T, mnt string) {
	t.Helper()
	w := exec.Command("dd", "if=/dev/zero", "of="+filepath.Join(mnt, "w"), "bs=4k", "count=1", "conv=fsync")
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = exec.Command("fsfreeze", "-u", mnt).Run() // before the wait, which needs the thaw
		_ = w.Wait()
	})
	deadline := time.Now().Add(10 * time.Second)
	for {
		state, exiting := procExiting(t, w.Process.Pid)
		if state == "D" && !exiting {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a write to the frozen file system: the writer is %q (exiting %v), not blocked", state, exiting)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := w.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	if state, exiting := procExiting(t, w.Process.Pid); !exiting {
		t.Fatalf("a writer killed while blocked in the frozen file system is %q and not seen exiting", state)
	}
}

// procExiting reports the process's state letter and whether it has
// begun to exit: gone, a zombie, or any of its threads with PF_EXITING in
// its flags or SIGKILL pending (exit_group kills every other thread so;
// a thread stuck in a write to the frozen file system, in state D, takes
// the signal only when the write returns, and when that thread is the
// leader, the process's own /proc stat shows D without PF_EXITING, which
// CI saw once).
func procExiting(t *testing.T, pid int) (string, bool) {
	t.Helper()
	dir := "/proc/" + strconv.Itoa(pid)
	state, exiting, ok := taskExiting(t, dir)
	if !ok {
		return "gone", true
	}
	tasks, _ := os.ReadDir(dir + "/task")
	for _, task := range tasks {
		if _, e, ok := taskExiting(t, dir+"/task/"+task.Name()); ok && e {
			exiting = true
		}
	}
	return state, exiting
}

// taskExiting reads one task's (or the process's) stat and status: its
// state letter, whether it is exiting, and false if it is gone.
func taskExiting(t *testing.T, dir string) (string, bool, bool) {
	t.Helper()
	b, err := os.ReadFile(dir + "/stat")
	if err != nil {
		return "", false, false
	}
	// pid (comm) state ppid pgrp session tty tpgid flags ...
	rest := string(b[strings.LastIndexByte(string(b), ')')+2:])
	f := strings.Fields(rest)
	if len(f) < 7 {
		t.Fatalf("unexpected /proc stat: %q", b)
	}
	flags, _ := strconv.ParseUint(f[6], 10, 64)
	const pfExiting = 0x4
	exiting := f[0] == "Z" || f[0] == "X" || flags&pfExiting != 0
	status, err := os.ReadFile(dir + "/status")
	if err != nil {
		return f[0], exiting, true
	}
	const sigkill = 1 << (9 - 1)
	for _, line := range strings.Split(string(status), "\n") {
		name, val, ok := strings.Cut(line, ":")
		if !ok || (name != "SigPnd" && name != "ShdPnd") {
			continue
		}
		if mask, err := strconv.ParseUint(strings.TrimSpace(val), 16, 64); err == nil && mask&sigkill != 0 {
			exiting = true
		}
	}
	return f[0], exiting, true
}
