package net

import (
	"testing"
	"unsafe"

	"github.com/rekv/rekv/actors"
)

func TestRequestsLoneCommandTakesNoBlock(t *testing.T) {
	var r requests
	a, b := r.next(false, false), r.next(false, false)
	if a == b {
		t.Fatal("two lone commands got one Request")
	}
	if len(r.free) != 0 {
		t.Fatalf("a lone command left %d Requests held", len(r.free))
	}
}

func TestRequestsPipelineSharesBlocks(t *testing.T) {
	var r requests
	seen := map[*actors.Request]bool{}
	for i := 0; i < 2*reqBlock+1; i++ {
		q := r.next(true, false)
		if seen[q] {
			t.Fatalf("request %d handed out twice", i)
		}
		seen[q] = true
		if q.Seq != 0 || q.Args != nil || q.Client != nil {
			t.Fatalf("request %d not zeroed: %+v", i, *q)
		}
		q.Seq = uint64(i) + 1 // used, as dispatch does
	}
	// The last of a pipeline (more false) still takes the block's rest.
	if q := r.next(false, false); seen[q] || len(r.free) != reqBlock-2 {
		t.Fatalf("the block's rest was not used: %d left", len(r.free))
	}
	allocs := testing.AllocsPerRun(100, func() {
		for i := 0; i < reqBlock; i++ {
			r.next(true, false)
		}
	})
	if allocs != 1 {
		t.Fatalf("%v allocations per %d pipelined Requests, want 1", allocs, reqBlock)
	}
}

// TestRequestsAloneNeverShare: a Request that may be kept long or holds
// much never comes from a block, even with one under way, and leaves the
// block's rest to the others.
func TestRequestsAloneNeverShare(t *testing.T) {
	var r requests
	first := r.next(true, false)
	left := len(r.free)
	for _, more := range []bool{true, false} {
		q := r.next(more, true)
		if len(r.free) != left {
			t.Fatalf("a lone Request (more %v) took from the block", more)
		}
		block := unsafe.Slice(first, reqBlock)
		for i := range block {
			if q == &block[i] {
				t.Fatalf("a lone Request (more %v) is in the block", more)
			}
		}
	}
}

func TestRequestBlockSize(t *testing.T) {
	// A block is meant to fill the 3 KiB size class; a Request that
	// grows past 256 bytes puts it in one whose spans hold fewer.
	if n := unsafe.Sizeof(actors.Request{}) * reqBlock; n > 3072 {
		t.Fatalf("a block of %d Requests is %d bytes, over 3 KiB", reqBlock, n)
	}
}
