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
//   - A slot is served by one node at a time (its caches are
//     authoritative for it). A node serves the slots the newest map it
//     read gives it (MOVED for the others), but a slot it gained only once
//     every other live node applied that map (State.Serving; TRYAGAIN
//     meanwhile): applying a map means having stopped serving what it
//     took away and let every write begun before end.
//   - Leases are written and judged by the store's clock (drivers.Clocked),
//     and no write of a node commits after its lease by that clock
//     (drivers.Fencer): when a node's lease ended and its slots went to
//     others without its consent, its writes are all in the store or
//     never will be. It serves from memory only until a tenth of its
//     term before its lease ends by its own clock (State.Deadline).
//   - KeySlot is Redis's: CRC16 (XMODEM) of the key's hash tag, mod 16384.
package cluster
