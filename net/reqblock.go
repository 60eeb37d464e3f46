package net

import "github.com/rekv/rekv/actors"

// reqBlock is how many Requests one allocation gives a pipelining
// connection. A Request is 256 bytes, so a block is 3 KiB, a size class
// whose spans hold 8 (a 4 KiB one's hold 2: the allocator would fetch a
// new span every other block).
const reqBlock = 12

// requests hands out a connection's Requests (event loop only). A
// pipeline's commands take theirs from one block: one allocation for
// twelve instead of one each, where the allocation was 4% of a
// pipelined GET's CPU. A command alone in its read (no pipeline) is
// allocated alone, so a connection that does not pipeline holds no
// block, and one that did holds at most the block's unused, zeroed rest.
// A Request is never reused: a block is freed once none of its Requests
// is reachable, so dispatch allocates alone the Requests that may be
// kept long (a blocking command's) or hold much (a big argument).
type requests struct {
	free []actors.Request
}

// next returns a zeroed Request. more says that more commands follow it
// in the read being run (worth starting a block for); alone that it must
// not share one (it may be kept long, or holds much).
func (r *requests) next(more, alone bool) *actors.Request {
	if alone || len(r.free) == 0 && !more {
		return new(actors.Request)
	}
	if len(r.free) == 0 {
		r.free = make([]actors.Request, reqBlock)
	}
	q := &r.free[0]
	r.free = r.free[1:]
	return q
}
