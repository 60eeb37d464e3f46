// Package membership keeps a node in the cluster (package cluster): it
// renews the node's member record in the store, reads the live members
// and the slot map, and writes the map rebalanced when the members
// changed, all in one store transaction per renewal so that two nodes
// rebalancing at once conflict and one wins.
//
// Invariants:
//   - A member record is deleted by whichever node first sees its lease
//     ended, or by a new node announcing the same address (the same
//     endpoint: the process that wrote it is gone).
//   - A leaving node deletes its record and rebalances in one
//     transaction, so its slots move at once, not at its lease's end.
//   - The state a node publishes is the one its last committed
//     transaction read and wrote; it is replaced, never modified.
package membership
