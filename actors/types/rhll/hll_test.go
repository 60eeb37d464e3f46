package rhll

import (
	"bytes"
	"fmt"
	"testing"
)

func TestEmptyAndPromotion(t *testing.T) {
	v := New()
	if n, err := Count(v); err != nil || n != 0 {
		t.Fatalf("empty count %d %v", n, err)
	}
	if c, ok := Cached(v); !ok || c != 0 {
		t.Fatal("a new HLL has a valid cached 0")
	}
	var err error
	for i := 0; i < 5000 && !IsDense(v); i++ {
		if v, _, err = Add(v, []byte(fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
		if !IsDense(v) && len(v) > SparseMaxBytes {
			t.Fatalf("sparse HLL of %d bytes", len(v))
		}
	}
	if !IsDense(v) || len(v) != DenseSize {
		t.Fatalf("not promoted to dense: %d bytes", len(v))
	}
	// Dense and sparse of the same registers count the same.
	s := New()
	for i := 0; i < 100; i++ {
		s, _, _ = Add(s, []byte(fmt.Sprint("x", i)))
	}
	d, err := ToDense(bytes.Clone(s))
	if err != nil {
		t.Fatal(err)
	}
	ns, _ := Count(s)
	nd, _ := Count(d)
	if ns != nd || ns < 90 || ns > 110 {
		t.Fatalf("sparse %d, dense %d, want about 100", ns, nd)
	}
	max := make([]byte, Registers)
	if err := Merge(max, s); err != nil {
		t.Fatal(err)
	}
	if n := CountRegisters(max); n != ns {
		t.Fatalf("merged registers count %d, want %d", n, ns)
	}
}

func TestCorruptSparseIsAnError(t *testing.T) {
	for _, tail := range [][]byte{
		{},           // no registers
		{0x7f},       // XZERO cut short
		{0x7f, 0xfe}, // one register short
		{0x7f, 0xff, 0x80},
	} {
		v := append(New()[:HeaderSize], tail...)
		if _, err := Count(v); err != ErrCorrupt {
			t.Errorf("%x: Count err %v", tail, err)
		}
		// Like Redis, Add walks only up to the register it changes, so it
		// may succeed on a damaged HLL; counting then fails.
		if w, _, err := Add(v, []byte("a")); err == nil {
			if _, err := Count(w); err != ErrCorrupt {
				t.Errorf("%x: Count after Add: %v", tail, err)
			}
		}
	}
}

// FuzzHostileHLL feeds arbitrary bytes that pass Check (a user can SET any
// string) to the operations: errors are fine, panics are not.
func FuzzHostileHLL(f *testing.F) {
	f.Add(New()[HeaderSize:], []byte("a"))
	f.Add([]byte{0x00, 0x80, 0xff, 0x40}, []byte("b"))
	f.Fuzz(func(t *testing.T, regs, elem []byte) {
		v := append(append([]byte(nil), New()[:HeaderSize]...), regs...)
		if Check(v) != nil {
			return
		}
		_, cerr := Count(v)
		_ = Merge(make([]byte, Registers), v)
		if w, _, err := Add(bytes.Clone(v), elem); err == nil && cerr == nil {
			if _, err := Count(w); err != nil {
				t.Fatalf("Add made a corrupt HLL from %x", regs)
			}
		}
	})
}

// SetInWindow on a register's bytes equals Set on the whole dense HLL.
func TestSetInWindowMatchesDense(t *testing.T) {
	d, _ := ToDense(New())
	w := bytes.Clone(d)
	for i := 0; i < 20000; i++ {
		elem := []byte(fmt.Sprint("k", i))
		idx, count := Position(elem)
		var changed bool
		d, changed, _ = Set(d, idx, count)
		off := RegisterOffset(idx)
		end := min(off+2, int64(len(w)))
		if got := SetInWindow(w[off:end], idx, count); got != changed {
			t.Fatalf("element %d: window changed=%v, dense %v", i, got, changed)
		}
	}
	if !bytes.Equal(d, w) {
		t.Fatal("windowed updates differ from dense updates")
	}
}
