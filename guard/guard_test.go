package guard

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"
)

func TestFuncRecoversAndReports(t *testing.T) {
	var buf bytes.Buffer
	var c Counter
	g := Guard{Log: slog.New(slog.NewTextHandler(&buf, nil)), Count: &c}
	ran := false
	g.Func("timer", func() { ran = true; panic("boom") })()
	if !ran || c.Load() != 1 {
		t.Fatalf("ran %v, count %d", ran, c.Load())
	}
	out := buf.String()
	for _, want := range []string{"panic recovered", "in=timer", "panic=boom", "guard_test.go"} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "panic recovered"); n != 1 {
		t.Errorf("logged %d times, want once", n)
	}
}

func TestGoRecovers(t *testing.T) {
	var c Counter
	g := Guard{Count: &c}
	done := make(chan struct{})
	g.Go("worker", func() { defer close(done); var s []int; _ = s[len(s)-1+1] })
	<-done
	// The count is taken by the recover deferred around fn, just after.
	for deadline := time.Now().Add(5 * time.Second); c.Load() == 0 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	if c.Load() != 1 {
		t.Fatalf("count %d, want 1", c.Load())
	}
}

func TestZeroGuardRecovers(t *testing.T) {
	Guard{}.Func("x", func() { panic(errors.New("e")) })()
	var c *Counter
	if c.Load() != 0 {
		t.Fatal("nil counter counts")
	}
}
