package bus

import (
	"slices"
	"time"
)

// writeBuffer is the size of an outbound connection's write buffer.
const writeBuffer = 64 << 10

// Link is one of the bus's TCP connections, as CLUSTER LINKS lists it.
type Link struct {
	// To is true for the connection this node opened to Node, false for
	// one Node opened to it.
	To bool
	// Node is the id of the node at the other end; empty for an inbound
	// connection that has not introduced itself yet.
	Node    string
	Created time.Time
	// Queued is the bytes of the messages waiting to be written (an
	// outbound link's queue; 0 inbound), Buffer the link's write buffer
	// (0 inbound: it only reads).
	Queued, Buffer int64
}

// inLink is what the bus knows of an inbound connection; node is set by
// the peer's hello frame, under Bus.inMu.
type inLink struct {
	node    string
	created time.Time
}

// Links returns the bus's connections: one to each peer it is connected
// to, one from each node connected to it; sorted by node, outbound first.
func (b *Bus) Links() []Link {
	var out []Link
	b.mu.Lock()
	for id, p := range b.peers {
		if since := p.since.Load(); since != 0 {
			out = append(out, Link{To: true, Node: id, Created: time.Unix(0, since), Queued: p.queued.Load(), Buffer: writeBuffer})
		}
	}
	b.mu.Unlock()
	b.inMu.Lock()
	for _, l := range b.inbound {
		out = append(out, Link{Node: l.node, Created: l.created})
	}
	b.inMu.Unlock()
	slices.SortFunc(out, func(x, y Link) int {
		if x.Node != y.Node {
			if x.Node < y.Node {
				return -1
			}
			return 1
		}
		if x.To != y.To {
			if x.To {
				return -1
			}
			return 1
		}
		return x.Created.Compare(y.Created)
	})
	return out
}
