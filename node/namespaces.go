package node

import (
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/namespaces"
)

// namespacePoll is how often a node reads the namespace definitions
// again: another node's changes (a new token, a deletion) take effect
// here within it. A definition added elsewhere is found at once anyway:
// a lookup that misses reads the store (namespaces.Registry).
const namespacePoll = time.Second

// watchNamespaces reads the definitions every namespacePoll and closes
// this node's connections in namespaces deleted since (on another node:
// NAMESPACE DEL closes its own node's at once), until stop is closed.
func (n *Node) watchNamespaces(reg *namespaces.Registry, stop <-chan struct{}) {
	seen := ids(reg.All())
	t := time.NewTicker(namespacePoll)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		if err := reg.Reload(); err != nil {
			n.log.Warn("namespaces: read the definitions", "err", err)
			continue
		}
		now := ids(reg.All())
		for id := range seen {
			if !now[id] {
				n.net.KillClients(command.KillFilter{Namespace: &id}, nil)
			}
		}
		seen = now
	}
}

func ids(all []namespaces.Namespace) map[uint32]bool {
	m := make(map[uint32]bool, len(all))
	for _, ns := range all {
		m[ns.ID] = true
	}
	return m
}
