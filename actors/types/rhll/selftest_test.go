package rhll

import (
	"strings"
	"testing"
	"time"
)

func TestSelfTest(t *testing.T) {
	t0 := time.Now()
	if err := SelfTest(1000000); err != nil {
		t.Fatal(err)
	}
	t.Logf("1,000,000 elements in %v", time.Since(t0))
}

// TestSelfTestFails shows each check of the self test can fail: a count
// that is off, and sparse and dense counts that disagree.
func TestSelfTestFails(t *testing.T) {
	off := func(v []byte) (uint64, error) {
		n, err := Count(v)
		return n + n/10 + 2, err
	}
	if err := selfTest(1000, off); err == nil || !strings.HasPrefix(err.Error(), "TESTFAILED Too big error") {
		t.Errorf("a count 10%% off: %v", err)
	}
	split := func(v []byte) (uint64, error) {
		n, err := Count(v)
		if !IsDense(v) {
			n++
		}
		return n, err
	}
	if err := selfTest(1000, split); err == nil || !strings.HasPrefix(err.Error(), "TESTFAILED sparse and dense") {
		t.Errorf("sparse and dense apart: %v", err)
	}
}
