// Package namespaces keeps the namespaces one store serves: each a name,
// a token a client authenticates with to enter it, and an id that places
// its 16 databases in the store (codec.NamespaceDB). The definitions are
// stored in the store itself (codec.NamespaceKey), not in a node's
// configuration, so they survive restarts and every node of a shared
// store serves the same set (Reload takes other nodes' changes).
//
// Invariants: names and tokens are each unique; a name is 1 to 255
// bytes; the default namespace (id 0, named "__namespace", the data every
// release stored) is not a definition and cannot be added, changed or
// deleted; an id is given once and never again, even after its namespace
// is deleted, so a new namespace can never see an old one's data (the
// caller flushes a deleted namespace's databases, and the GC reclaims
// them); every change is one store transaction that re-checks the
// uniqueness rules against the store, so two nodes adding at once cannot
// both take a name or a token. A namespace's quotas and its usage (which
// the GC's meter writes) are kept by id beside its definition, and go
// with it. A replica takes its master's definitions whole (Replace).
package namespaces
