package codec

import "encoding/binary"

// FunctionKey returns the system key holding the code of a function
// library of namespace ns (FUNCTION LOAD; each namespace has its own):
//
//	's' "fn" 0 | name          -> code   the default namespace's
//	's' "fn" 1 | ns (4) | name -> code   namespace ns's
func FunctionKey(ns uint32, name string) []byte {
	return append(FunctionPrefix(ns), name...)
}

// FunctionPrefix is the prefix of every function library's key of
// namespace ns.
func FunctionPrefix(ns uint32) []byte {
	if ns == 0 {
		return []byte{PrefixSystem, 'f', 'n', 0}
	}
	return binary.BigEndian.AppendUint32([]byte{PrefixSystem, 'f', 'n', 1}, ns)
}

// FunctionsVersionKey returns the system key whose value (8 bytes) changes
// with every change to namespace ns's function libraries, so each node
// knows when to reload them: 's' "fnv", then ns (4) but for the default
// namespace.
func FunctionsVersionKey(ns uint32) []byte {
	if ns == 0 {
		return []byte{PrefixSystem, 'f', 'n', 'v'}
	}
	return binary.BigEndian.AppendUint32([]byte{PrefixSystem, 'f', 'n', 'v'}, ns)
}
