package command

import (
	"fmt"

	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/cluster"
)

// ClusterRefusal returns why this node (st) does not serve a key of slot,
// nil when it does: CLUSTERDOWN when no live node owns it, MOVED to its
// owner, TRYAGAIN while it is being handed over to this node (the node
// that served it has not yet applied the map that moved it).
func ClusterRefusal(st *cluster.State, slot int) error {
	if st.Serves(slot) {
		return nil
	}
	owner, ok := st.Owner(slot)
	switch {
	case !ok:
		return rerr.ErrClusterDown
	case owner.ID != st.Self.ID:
		return rerr.Moved(slot, owner.Addr())
	}
	return &rerr.Error{Msg: fmt.Sprintf("TRYAGAIN Slot %d is being handed over to this node; retry shortly", slot)}
}
