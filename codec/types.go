package codec

import "strings"

// TypeInfo is what rekv knows of one Redis type, in one place: the name
// TYPE reports, whether its members live under sub-keys (counted in
// Meta.Size, removed by the GC with the key's version), how many 8-byte
// fields its meta value carries after the fixed part (a string carries
// its payload instead), whether the key stays when its last member goes
// (a stream), the RDB type byte DUMP writes it as, and the encodings
// OBJECT ENCODING may report for it (compact first).
type TypeInfo struct {
	Name       string
	Collection bool
	MetaFields int
	EmptyStays bool
	RDB        byte
	Encodings  []string
}

// typeTable is indexed by Type. It is never written. A new type gets an
// entry here (and a number below 16: the meta's first byte keeps the type
// in its low nibble).
var typeTable = [...]TypeInfo{
	TypeNone:   {Name: "none"},
	TypeString: {Name: "string", RDB: 0, Encodings: []string{"embstr", "int", "raw"}},
	TypeHash:   {Name: "hash", Collection: true, MetaFields: 1, RDB: 4, Encodings: []string{"listpack", "hashtable"}},
	TypeList:   {Name: "list", Collection: true, MetaFields: 3, RDB: 1, Encodings: []string{"quicklist"}},
	TypeSet:    {Name: "set", Collection: true, MetaFields: 1, RDB: 2, Encodings: []string{"intset", "hashtable"}},
	TypeZSet:   {Name: "zset", Collection: true, MetaFields: 1, RDB: 5, Encodings: []string{"listpack", "skiplist"}},
	TypeStream: {Name: "stream", Collection: true, MetaFields: 6, EmptyStays: true, RDB: 19, Encodings: []string{"stream"}},
	// Module types: Redis reports RDB type 7 (a module value) and
	// encoding "raw" for them.
	TypeBloom:   {Name: "MBbloom--", Collection: true, MetaFields: 1, EmptyStays: true, RDB: 7, Encodings: []string{"raw"}},
	TypeCMS:     {Name: "CMSk-TYPE", Collection: true, MetaFields: 1, EmptyStays: true, RDB: 7, Encodings: []string{"raw"}},
	TypeCuckoo:  {Name: "MBbloomCF", Collection: true, MetaFields: 1, EmptyStays: true, RDB: 7, Encodings: []string{"raw"}},
	TypeTopK:    {Name: "TopK-TYPE", Collection: true, MetaFields: 1, EmptyStays: true, RDB: 7, Encodings: []string{"raw"}},
	TypeTDigest: {Name: "TDIS-TYPE", Collection: true, MetaFields: 1, EmptyStays: true, RDB: 7, Encodings: []string{"raw"}},
	TypeJSON:    {Name: "ReJSON-RL", Collection: true, MetaFields: 1, EmptyStays: true, RDB: 7, Encodings: []string{"raw"}},
}

// Info returns t's descriptor; an unknown type's is TypeNone's.
func (t Type) Info() TypeInfo {
	if int(t) < len(typeTable) {
		return typeTable[t]
	}
	return typeTable[TypeNone]
}

// String returns the name TYPE reports for t.
func (t Type) String() string { return t.Info().Name }

// IsCollection reports whether t stores members under sub-keys.
func (t Type) IsCollection() bool { return t.Info().Collection }

// Types returns every stored type, in number order.
func Types() []Type {
	out := make([]Type, 0, len(typeTable)-1)
	for t := range typeTable[1:] {
		out = append(out, Type(t+1))
	}
	return out
}

// ParseType maps a TYPE name (in any case) to its Type, or TypeNone.
func ParseType(name string) Type {
	for _, t := range Types() {
		if strings.EqualFold(t.String(), name) {
			return t
		}
	}
	return TypeNone
}
