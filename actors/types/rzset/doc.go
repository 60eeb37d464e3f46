// Package rzset is the sorted set type's operations on a store
// transaction: one sub-key per member (value: its score) and one score
// index entry per member (codec's score order, then the member), under
// the key's version, the exact member count in the meta.
//
// Invariants:
//   - A member's sub-key and its index entry are written and removed
//     together; -0 is stored as 0.
//   - The count is kept here: Batch (and SetAll) adds the new members to
//     it when the batch closes, RemoveMembers removes them; commands never
//     adjust it (lint checks that no command calls Grow).
package rzset
