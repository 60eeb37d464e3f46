package codec

import (
	"encoding/binary"
	"fmt"
)

// Namespaces (package namespaces): each is a name, a token and an id that
// is never reused. Namespace id n's logical database db is stored as
// database n*NamespaceDatabases + db, so its records and slots follow the
// default namespace's (id 0: the databases every release stored).
//
//	's' "ns" 0 | name  -> id (4) | token     a namespace's definition
//	's' "nsid"         -> id (4)             the last id given

// NamespaceDatabases is the number of logical databases of a namespace.
const NamespaceDatabases = 16

// MaxNamespace is the largest namespace id: its last database's slot is
// MaxSlot.
const MaxNamespace = uint32((uint64(MaxSlot)+1)/NamespaceDatabases - 1)

// NamespaceKey returns the system key of namespace name's definition.
func NamespaceKey(name string) []byte { return append(NamespacePrefix(), name...) }

// NamespacePrefix is the prefix of every namespace's definition.
func NamespacePrefix() []byte { return []byte{PrefixSystem, 'n', 's', 0} }

// NamespaceIDKey returns the system key of the last namespace id given.
func NamespaceIDKey() []byte { return []byte{PrefixSystem, 'n', 's', 'i', 'd'} }

// EncodeNamespace encodes a namespace's definition.
func EncodeNamespace(id uint32, token string) []byte {
	return append(binary.BigEndian.AppendUint32(make([]byte, 0, 4+len(token)), id), token...)
}

// DecodeNamespace inverts EncodeNamespace.
func DecodeNamespace(b []byte) (id uint32, token string, err error) {
	if len(b) < 4 {
		return 0, "", fmt.Errorf("codec: namespace of %d bytes: %w", len(b), ErrCorrupt)
	}
	return binary.BigEndian.Uint32(b), string(b[4:]), nil
}

// NamespaceDB returns the logical database (as stored: its record's key
// and first slot) of database db of namespace id.
func NamespaceDB(id uint32, db int) Slot { return Slot(id)*NamespaceDatabases + Slot(db) }

// A namespace's quotas and its measured usage are kept apart from its
// definition, by id (a name added again is another namespace):
//
//	's' "nsq" id (4) -> max keys (8) | max bytes (8) | max ops/s (8)
//	                    | max clients (8)            its quotas (0: none)
//	's' "nsu" id (4) -> keys (8) | bytes (8) | at ms (8)
//	                                                 its usage, measured
//	                                                 by the GC's meter

// NamespaceQuotaKey returns the system key of namespace id's quotas.
func NamespaceQuotaKey(id uint32) []byte {
	return binary.BigEndian.AppendUint32(NamespaceQuotaPrefix(), id)
}

// NamespaceQuotaPrefix is the prefix of every namespace's quotas.
func NamespaceQuotaPrefix() []byte { return []byte{PrefixSystem, 'n', 's', 'q'} }

// NamespaceUsageKey returns the system key of namespace id's usage.
func NamespaceUsageKey(id uint32) []byte {
	return binary.BigEndian.AppendUint32(NamespaceUsagePrefix(), id)
}

// NamespaceUsagePrefix is the prefix of every namespace's usage.
func NamespaceUsagePrefix() []byte { return []byte{PrefixSystem, 'n', 's', 'u'} }

// NamespaceIDOf returns the id a quota or usage key (prefix p) names.
func NamespaceIDOf(p, key []byte) (uint32, error) {
	if len(key) != len(p)+4 {
		return 0, fmt.Errorf("codec: namespace key of %d bytes: %w", len(key), ErrCorrupt)
	}
	return binary.BigEndian.Uint32(key[len(p):]), nil
}

// EncodeInts encodes fixed 8-byte integers (a namespace's quotas or
// usage).
func EncodeInts(v ...int64) []byte {
	b := make([]byte, 0, 8*len(v))
	for _, x := range v {
		b = binary.BigEndian.AppendUint64(b, uint64(x))
	}
	return b
}

// DecodeInts inverts EncodeInts for n integers; a shorter value (an older
// release's) reads its missing integers as 0.
func DecodeInts(b []byte, n int) ([]int64, error) {
	if len(b)%8 != 0 {
		return nil, fmt.Errorf("codec: %d bytes of integers: %w", len(b), ErrCorrupt)
	}
	out := make([]int64, n)
	for i := 0; i < n && 8*i < len(b); i++ {
		out[i] = int64(binary.BigEndian.Uint64(b[8*i:]))
	}
	return out, nil
}
