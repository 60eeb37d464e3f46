package actors

// shardDispatcher runs a shard's mailbox passes on one long-lived
// goroutine instead of protoactor's default, a new goroutine per pass. At
// pipeline depth 1 a shard's mailbox empties after nearly every request,
// so the default starts a goroutine per request whose stack then grows
// (copied) through the command and storage code: 5% of the CPU of a SET
// in the profile. The goroutine here keeps its grown stack.
//
// A mailbox schedules a pass only when it goes from idle to running, so
// at most one pass waits while another finishes; Schedule never blocks its
// caller (an event loop) all the same: with the slot taken, or once the
// engine has stopped, the pass runs on a new goroutine as before.
type shardDispatcher struct {
	passes chan func()
	done   <-chan struct{}
}

// shardThroughput is the messages a pass processes before yielding
// (protoactor's default).
const shardThroughput = 300

func newShardDispatcher(done <-chan struct{}) *shardDispatcher {
	d := &shardDispatcher{passes: make(chan func(), 2), done: done}
	go d.loop()
	return d
}

func (d *shardDispatcher) loop() {
	for {
		select {
		case fn := <-d.passes:
			fn()
		case <-d.done:
			for { // passes queued before the stop still run
				select {
				case fn := <-d.passes:
					fn()
				default:
					return
				}
			}
		}
	}
}

// Schedule implements actor.Dispatcher.
func (d *shardDispatcher) Schedule(fn func()) {
	select {
	case <-d.done:
		go fn()
		return
	default:
	}
	select {
	case d.passes <- fn:
	default:
		go fn()
	}
}

// Throughput implements actor.Dispatcher.
func (d *shardDispatcher) Throughput() int { return shardThroughput }
