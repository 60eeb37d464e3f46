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
