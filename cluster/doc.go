// Package cluster is rekv's Redis Cluster mode: the 16,384 hash slots,
// which live node owns each, and the membership that decides it.
//
// Nodes are stateless: the data of every slot lives in the shared store,
// so moving a slot moves no data, only ownership. Each node keeps a
// member record in the store (Member: its id, announced address and a
// lease it renews in a transaction); the slot map (Map) lists, for each
// slot, the node that owns it, with an epoch raised by every change.
// Package cluster/membership runs on every node: it renews the node's
// lease, and in one transaction reads the live members and the map and,
// when they disagree, writes the rebalanced map (Rebalance). Two nodes
// rebalancing at once conflict and one wins, so every map has one writer.
//
// Invariants:
//   - Rebalance is a pure function of the old map and the live members:
//     every node computes the same map from the same records. Slots move
//     only from nodes that left or hold more than their share, and a
//     node's share is a run of slots as long as it can be.
//   - A node serves the slots the newest map it read gives it, and
//     answers MOVED for the others. Between two reads of the map (one
//     renewal interval) two nodes may both serve a slot that moved: in
//     shared mode that is safe, since every command validates what it
//     reads in its store transaction and caches are only hints.
//   - KeySlot is Redis's: CRC16 (XMODEM) of the key's hash tag, mod 16384.
package cluster
