package command

import (
	"testing"

	"github.com/rekv/rekv/resp"
)

// TestWaitDefaults: a Wait reports what it holds; a timed-out wait replies
// a null array unless NullBulk; it consumes unless Reader, and may block
// unless NoWait.
func TestWaitDefaults(t *testing.T) {
	for _, tc := range []struct {
		w                  Wait
		reply              string
		consumes, mayBlock bool
	}{
		{Wait{}, "*-1\r\n", true, true},
		{Wait{NullBulk: true}, "$-1\r\n", true, true},
		{Wait{Reader: true, NoWait: true}, "*-1\r\n", false, false},
	} {
		w := resp.NewWriter(2)
		tc.w.TimedOut(w)
		if got := string(w.Bytes()); got != tc.reply || tc.w.Consumes() != tc.consumes || tc.w.MayBlock() != tc.mayBlock {
			t.Errorf("%+v: reply %q consumes %v may block %v", tc.w, got, tc.w.Consumes(), tc.w.MayBlock())
		}
	}
	w := Wait{Keys: [][]byte{[]byte("a")}, Also: [][]byte{[]byte("b")}, For: 5}
	if string(w.WaitKeys()[0]) != "a" || string(w.ServeKeys()[0]) != "b" || w.Timeout() != 5 {
		t.Errorf("Wait reports %q %q %v", w.WaitKeys(), w.ServeKeys(), w.Timeout())
	}
}
