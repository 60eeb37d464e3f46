package actors

import "sync"

// readerPool runs snapshot reads (snapshot.go) on long-lived goroutines,
// at most max at once. An idle reader waits on a stack, and the one that
// went idle last takes the next read: its stack and its scratch (the
// Ctx, the transaction's spare maps) are still in the CPU's caches. When
// 256 readers took reads in turn from one channel (whose waiting
// receivers are served first come, first served), each read ran on the
// reader that had been idle longest, cold in the caches and with a stack
// a collection had shrunk: the readers' part of a TiKV node's CPU under
// GET -P 1 was 17% with 256 of them, 11.5% with 16.
//
// A hand-off waits only when max readers are busy, as the channel's send
// did. Close ends the idle readers, and each busy one once its read is
// done.
type readerPool struct {
	max  int
	run  func(j readJob, sc *runScratch) // runs one read
	mu   sync.Mutex
	free *sync.Cond // signalled when a reader goes idle
	idle []chan readJob
	n    int // readers started
	done bool
}

// newReaderPool returns a pool of at most max readers that run reads
// with run.
func newReaderPool(max int, run func(readJob, *runScratch)) *readerPool {
	p := &readerPool{max: max, run: run}
	p.free = sync.NewCond(&p.mu)
	return p
}

// hand gives j to the reader idle last, to a new one when none is idle
// and fewer than max run, else waits for one to go idle.
func (p *readerPool) hand(j readJob) {
	p.mu.Lock()
	for len(p.idle) == 0 && p.n >= p.max {
		p.free.Wait()
	}
	if n := len(p.idle); n > 0 {
		ch := p.idle[n-1]
		p.idle[n-1] = nil
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		ch <- j // buffered: an idle reader's slot is empty
		return
	}
	p.n++
	p.mu.Unlock()
	ch := make(chan readJob, 1)
	ch <- j
	go p.reader(ch)
}

// reader runs the reads handed to it on ch, going idle between them,
// until the pool closes.
func (p *readerPool) reader(ch chan readJob) {
	var sc runScratch
	for j := range ch {
		p.run(j, &sc)
		if !p.rest(ch) {
			return
		}
	}
}

// rest puts the reader of ch on the idle stack; false: the pool is
// closed, and the reader ends.
func (p *readerPool) rest(ch chan readJob) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		p.n--
		return false
	}
	p.idle = append(p.idle, ch)
	p.free.Signal()
	return true
}

// close ends the idle readers, and the busy ones once their reads are
// done. Nothing may be handed after.
func (p *readerPool) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done = true
	for _, ch := range p.idle {
		close(ch)
		p.n--
	}
	p.idle = nil
}
