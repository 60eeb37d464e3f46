package codec

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// ErrCorrupt reports bytes that do not decode as the layout in doc.go.
var ErrCorrupt = errors.New("codec: corrupt encoding")

// Key family prefixes. See doc.go.
const (
	PrefixMeta    byte = 'm'
	PrefixData    byte = 'd'
	PrefixScore   byte = 'z'
	PrefixTTL     byte = 't'
	PrefixGarbage byte = 'g'
	PrefixSystem  byte = 's'
	PrefixStamp   byte = 'w'
	PrefixHashTTL byte = 'f'
)

// EncodingVersion is stored in the high nibble of the meta flags byte.
const EncodingVersion = 0

// EncodingChunked, in the high nibble of a string's meta flags byte, marks
// a string stored in chunks: the meta holds its length (8) and chunk i,
// bytes [i*StringChunk, (i+1)*StringChunk), lives under the sub-key field
// ChunkField(i). A missing chunk reads as zero bytes.
const EncodingChunked = 1

// EncodingFieldTTL, in the high nibble of a hash's meta flags byte, marks a
// hash whose fields may carry TTLs (Redis 7.4's hash-field expiration): the
// meta holds, after the size, FieldTTL (8), at or before the earliest
// field expiry. The TTLs themselves live in the version's score range
// (FieldTTLKey, FieldOrderKey); the hash-TTL index ('f') holds one entry
// per such hash at its FieldTTL.
const EncodingFieldTTL = 1

// EncodingConverted, in the high nibble of the meta flags byte, marks a
// value Redis would have converted to its general representation, which
// it keeps (OBJECT ENCODING) whatever the value holds later: an inline
// string modified in place (APPEND, SETRANGE, SETBIT, BITFIELD, PFADD),
// raw until it is set whole again; a set, hash or sorted set that held a
// member too long or too many members (set-max-intset-entries,
// hash-max-listpack-*, zset-max-listpack-*), a hashtable or skiplist for
// good. The layout is encoding 0's; for a hash it is a bit beside
// EncodingFieldTTL's (3: both).
const EncodingConverted = 2

// ListpackLimits are the limits of a small hash or sorted set
// (hash-max-listpack-entries and -value, zset-max-listpack-entries and
// -value): one that gets an entry longer than Value, or more than Entries
// entries, is marked EncodingConverted, as Redis turns its listpack into
// a hashtable or skiplist then.
type ListpackLimits struct{ Entries, Value int64 }

// StringChunk is the size of a chunked string's chunks. Part of the format:
// never change it.
const StringChunk = 8192

// StringInlineMax is the longest string kept inline in its meta value;
// longer strings are chunked.
const StringInlineMax = StringChunk

// Type identifies the Redis type of a key. The values are stable forever.
type Type uint8

// Redis types. Never renumber.
const (
	TypeNone    Type = 0
	TypeString  Type = 1
	TypeHash    Type = 2
	TypeList    Type = 3
	TypeSet     Type = 4
	TypeZSet    Type = 5
	TypeStream  Type = 6
	TypeBloom   Type = 7  // RedisBloom's Bloom filter (TYPE MBbloom--)
	TypeCMS     Type = 8  // RedisBloom's count-min sketch (TYPE CMSk-TYPE)
	TypeCuckoo  Type = 9  // RedisBloom's Cuckoo filter (TYPE MBbloomCF)
	TypeTopK    Type = 10 // RedisBloom's Top-K (TYPE TopK-TYPE)
	TypeTDigest Type = 11 // RedisBloom's t-digest (TYPE TDIS-TYPE)
	TypeJSON    Type = 12 // RedisJSON's document (TYPE ReJSON-RL)
)

// Meta is the decoded meta value of a Redis key, without a string payload.
type Meta struct {
	Type     Type
	ExpireAt int64  // unix milliseconds; 0 means no expiry
	Version  uint64 // unique per key incarnation
	Size     uint64 // member count; collections only
	Head     uint64 // first list index; lists only
	Tail     uint64 // one past the last list index; lists only
	Stream   StreamMeta
	Chunked  bool // a string stored in chunks; Size is its length
	// Converted: an inline string modified in place, or a set converted
	// from intset to hashtable (EncodingConverted).
	Converted bool
	// FieldTTL, for a hash whose fields may carry TTLs, is at or before
	// the earliest of them (unix ms): no field expired before it. 0: no
	// field has a TTL.
	FieldTTL int64
}

// HasSubKeys reports whether the key's version may own sub-keys: a
// collection or a chunked string. Replacing or deleting such a key leaves
// its version to the GC.
func (m Meta) HasSubKeys() bool { return m.Type.IsCollection() || m.Chunked }

// Expired reports whether m has an expiry at or before now (unix ms).
func (m Meta) Expired(now int64) bool { return m.ExpireAt != 0 && m.ExpireAt <= now }

const metaFixed = 1 + 8 + 8

// AppendMetaKey appends the meta key of (db, key) to dst.
func AppendMetaKey(dst []byte, db Slot, key []byte) []byte {
	dst = AppendSlot(append(dst, PrefixMeta), db)
	return append(dst, key...)
}

// MetaKeyLen returns the length of the meta key of (db, key).
func MetaKeyLen(db Slot, key []byte) int { return 1 + SlotLen(db) + len(key) }

// MetaKey returns the meta key of (db, key).
func MetaKey(db Slot, key []byte) []byte {
	return AppendMetaKey(make([]byte, 0, MetaKeyLen(db, key)), db, key)
}

// StampKey returns the key of a user key's write stamp: on a store shared
// by several nodes, every transaction that writes the key (members
// included) sets it to a fresh random value, or deletes it with the key,
// so WATCH on one node sees writes made on another.
func StampKey(db Slot, key []byte) []byte {
	return append(AppendSlot(append(make([]byte, 0, 1+SlotLen(db)+len(key)), PrefixStamp), db), key...)
}

// DecodeMetaKey splits a meta key into its db and user key (aliasing k).
func DecodeMetaKey(k []byte) (db Slot, key []byte, err error) {
	if len(k) < 2 || k[0] != PrefixMeta {
		return 0, nil, ErrCorrupt
	}
	db, n, err := ReadSlot(k[1:])
	if err != nil {
		return 0, nil, err
	}
	return db, k[1+n:], nil
}

// MetaUserKey returns the user key of a meta key (aliasing mk), or nil
// if mk is not one.
func MetaUserKey(mk []byte) []byte {
	_, key, err := DecodeMetaKey(mk)
	if err != nil {
		return nil
	}
	return key
}

// MetaRange returns the [start, end) range holding every meta key of db.
func MetaRange(db Slot) (start, end []byte) {
	return slotRange(PrefixMeta, db)
}

// slotRange returns the [start, end) range of the keys of family prefix
// in slot db.
func slotRange(prefix byte, db Slot) (start, end []byte) {
	start = AppendSlot([]byte{prefix}, db)
	if db == MaxSlot {
		return start, []byte{prefix, 0xf0}
	}
	return start, AppendSlot([]byte{prefix}, db+1)
}

// MetaRangeAll returns the [start, end) range holding every meta key.
func MetaRangeAll() (start, end []byte) {
	return []byte{PrefixMeta}, []byte{PrefixMeta + 1}
}

// MetaLen returns the length of m's encoding with payload (AppendMeta).
func MetaLen(m Meta, payload []byte) int {
	switch {
	case m.Type == TypeString && m.Chunked:
		return metaFixed + 8
	case m.Type == TypeString:
		return metaFixed + len(payload)
	case m.Type == TypeHash && m.FieldTTL != 0:
		return metaFixed + 16
	case m.Type == TypeStream && m.Stream.Tail != (StreamNode{}):
		return metaFixed + 8*streamNodeFields
	}
	return metaFixed + 8*m.Type.Info().MetaFields
}

// AppendMeta appends the encoding of m (and payload, for strings) to dst.
func AppendMeta(dst []byte, m Meta, payload []byte) []byte {
	enc := byte(EncodingVersion)
	switch {
	case m.Type == TypeString && m.Chunked:
		enc = EncodingChunked
	case m.Type == TypeHash && m.FieldTTL != 0:
		enc = EncodingFieldTTL
	}
	if m.Converted && (m.Type == TypeString && !m.Chunked || m.Type == TypeSet || m.Type == TypeHash || m.Type == TypeZSet) {
		enc |= EncodingConverted
	}
	dst = append(dst, enc<<4|byte(m.Type))
	dst = binary.BigEndian.AppendUint64(dst, uint64(m.ExpireAt))
	dst = binary.BigEndian.AppendUint64(dst, m.Version)
	switch {
	case m.Type == TypeString && m.Chunked:
		dst = binary.BigEndian.AppendUint64(dst, m.Size)
	case m.Type == TypeString:
		dst = append(dst, payload...)
	case m.Type == TypeList:
		dst = binary.BigEndian.AppendUint64(dst, m.Size)
		dst = binary.BigEndian.AppendUint64(dst, m.Head)
		dst = binary.BigEndian.AppendUint64(dst, m.Tail)
	case m.Type == TypeStream:
		s := m.Stream
		for _, n := range []uint64{m.Size, s.LastID.Ms, s.LastID.Seq, s.MaxDeletedID.Ms, s.MaxDeletedID.Seq, s.EntriesAdded} {
			dst = binary.BigEndian.AppendUint64(dst, n)
		}
		if t := s.Tail; t != (StreamNode{}) {
			for _, n := range []uint64{t.First.Ms, t.First.Seq, t.Last.Ms, t.Last.Seq, t.Live, t.Deleted, t.Bytes, t.Fields, t.FieldsHash} {
				dst = binary.BigEndian.AppendUint64(dst, n)
			}
		}
	case m.Type == TypeHash && m.FieldTTL != 0:
		dst = binary.BigEndian.AppendUint64(dst, m.Size)
		dst = binary.BigEndian.AppendUint64(dst, uint64(m.FieldTTL))
	case m.Type.IsCollection():
		dst = binary.BigEndian.AppendUint64(dst, m.Size)
	}
	return dst
}

// DecodeMeta decodes a meta value. The payload aliases v.
func DecodeMeta(v []byte) (Meta, []byte, error) {
	if len(v) < metaFixed {
		return Meta{}, nil, ErrCorrupt
	}
	m := Meta{
		Type:     Type(v[0] & 0x0f),
		ExpireAt: int64(binary.BigEndian.Uint64(v[1:9])),
		Version:  binary.BigEndian.Uint64(v[9:17]),
	}
	enc := v[0] >> 4
	if enc&EncodingConverted != 0 && (m.Type == TypeString || m.Type == TypeSet || m.Type == TypeHash || m.Type == TypeZSet) {
		m.Converted = true
		enc &^= EncodingConverted
	}
	switch {
	case enc == EncodingChunked && m.Type == TypeString && !m.Converted:
		m.Chunked = true
	case enc == EncodingFieldTTL && m.Type == TypeHash:
		rest := v[metaFixed:]
		if len(rest) != 16 {
			return Meta{}, nil, ErrCorrupt
		}
		m.Size = binary.BigEndian.Uint64(rest)
		m.FieldTTL = int64(binary.BigEndian.Uint64(rest[8:]))
		if m.FieldTTL <= 0 || m.ExpireAt < 0 {
			return Meta{}, nil, ErrCorrupt
		}
		return m, nil, nil
	case enc != EncodingVersion:
		return Meta{}, nil, ErrCorrupt
	}
	if m.ExpireAt < 0 {
		return Meta{}, nil, ErrCorrupt
	}
	rest := v[metaFixed:]
	switch {
	case m.Chunked:
		if len(rest) != 8 {
			return Meta{}, nil, ErrCorrupt
		}
		m.Size = binary.BigEndian.Uint64(rest)
		return m, nil, nil
	case m.Type == TypeString:
		return m, rest, nil
	case m.Type == TypeList:
		if len(rest) != 8*m.Type.Info().MetaFields {
			return Meta{}, nil, ErrCorrupt
		}
		m.Size = binary.BigEndian.Uint64(rest)
		m.Head = binary.BigEndian.Uint64(rest[8:])
		m.Tail = binary.BigEndian.Uint64(rest[16:])
		if m.Tail < m.Head || m.Tail-m.Head != m.Size {
			return Meta{}, nil, ErrCorrupt
		}
		return m, nil, nil
	case m.Type == TypeStream:
		if len(rest) != 8*m.Type.Info().MetaFields && len(rest) != 8*streamNodeFields {
			return Meta{}, nil, ErrCorrupt
		}
		u := func(i int) uint64 { return binary.BigEndian.Uint64(rest[8*i:]) }
		m.Size = u(0)
		m.Stream = StreamMeta{LastID: StreamID{u(1), u(2)}, MaxDeletedID: StreamID{u(3), u(4)}, EntriesAdded: u(5)}
		if len(rest) > 8*m.Type.Info().MetaFields {
			m.Stream.Tail = StreamNode{First: StreamID{u(6), u(7)}, Last: StreamID{u(8), u(9)}, Live: u(10), Deleted: u(11),
				Bytes: u(12), Fields: u(13), FieldsHash: u(14)}
			if m.Stream.Tail == (StreamNode{}) { // written without it
				return Meta{}, nil, ErrCorrupt
			}
		}
		return m, nil, nil
	case m.Type.IsCollection():
		if len(rest) != 8*m.Type.Info().MetaFields {
			return Meta{}, nil, ErrCorrupt
		}
		m.Size = binary.BigEndian.Uint64(rest)
		return m, nil, nil
	}
	return Meta{}, nil, ErrCorrupt
}

// appendKeyed appends prefix | db | len(key) | key | version.
func appendKeyed(dst []byte, prefix byte, db Slot, key []byte, version uint64) []byte {
	dst = AppendSlot(append(dst, prefix), db)
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(key)))
	dst = append(dst, key...)
	return binary.BigEndian.AppendUint64(dst, version)
}

// SubKeyPrefix returns the prefix shared by every sub-key of one key version.
func SubKeyPrefix(db Slot, key []byte, version uint64) []byte {
	return AppendSubKeyPrefix(make([]byte, 0, 14+len(key)), db, key, version)
}

// AppendSubKeyPrefix appends SubKeyPrefix(db, key, version) to dst.
func AppendSubKeyPrefix(dst []byte, db Slot, key []byte, version uint64) []byte {
	return appendKeyed(dst, PrefixData, db, key, version)
}

// AppendSubKey appends the sub-key of field under (db, key, version) to dst.
func AppendSubKey(dst []byte, db Slot, key []byte, version uint64, field []byte) []byte {
	return append(appendKeyed(dst, PrefixData, db, key, version), field...)
}

// ScoreKeyPrefix returns the prefix of one zset version's score index.
func ScoreKeyPrefix(db Slot, key []byte, version uint64) []byte {
	return AppendScoreKeyPrefix(make([]byte, 0, 14+len(key)), db, key, version)
}

// AppendScoreKeyPrefix appends ScoreKeyPrefix's prefix to dst.
func AppendScoreKeyPrefix(dst []byte, db Slot, key []byte, version uint64) []byte {
	return appendKeyed(dst, PrefixScore, db, key, version)
}

// AppendScoreKey appends the score-index key of (score, member) to dst.
func AppendScoreKey(dst []byte, db Slot, key []byte, version uint64, score float64, member []byte) []byte {
	dst = appendKeyed(dst, PrefixScore, db, key, version)
	dst = binary.BigEndian.AppendUint64(dst, EncodeScore(score))
	return append(dst, member...)
}

// DecodeScoreSuffix splits what follows a ScoreKeyPrefix into score and member.
func DecodeScoreSuffix(b []byte) (float64, []byte, error) {
	if len(b) < 8 {
		return 0, nil, ErrCorrupt
	}
	return DecodeScore(binary.BigEndian.Uint64(b)), b[8:], nil
}

// EncodeScore maps a float to a uint64 whose unsigned order equals the
// float's numeric order (-inf < ... < -0 < +0 < ... < +inf). NaN must not be
// passed: callers reject it first.
func EncodeScore(f float64) uint64 {
	b := math.Float64bits(f)
	if b>>63 == 1 {
		return ^b
	}
	return b | 1<<63
}

// DecodeScore inverts EncodeScore.
func DecodeScore(u uint64) float64 {
	if u>>63 == 1 {
		return math.Float64frombits(u &^ (1 << 63))
	}
	return math.Float64frombits(^u)
}

// TTLKey returns the TTL-index key of (db, key) expiring at expireAt.
func TTLKey(expireAt int64, db Slot, key []byte) []byte {
	return timeKey(PrefixTTL, expireAt, db, key)
}

// DecodeTTLKey inverts TTLKey. The user key aliases k.
func DecodeTTLKey(k []byte) (expireAt int64, db Slot, key []byte, err error) {
	return decodeTimeKey(PrefixTTL, k)
}

// TTLRangeUntil returns the range of TTL entries expiring at or before now.
func TTLRangeUntil(now int64) (start, end []byte) { return timeRangeUntil(PrefixTTL, now) }

// The two time indexes (TTL, hash-TTL) share one layout:
// prefix | at (8) | db | key.

func timeKey(prefix byte, at int64, db Slot, key []byte) []byte {
	dst := make([]byte, 0, 9+SlotLen(db)+len(key))
	dst = append(dst, prefix)
	dst = binary.BigEndian.AppendUint64(dst, uint64(at))
	dst = AppendSlot(dst, db)
	return append(dst, key...)
}

func decodeTimeKey(prefix byte, k []byte) (at int64, db Slot, key []byte, err error) {
	if len(k) < 10 || k[0] != prefix {
		return 0, 0, nil, ErrCorrupt
	}
	db, n, err := ReadSlot(k[9:])
	if err != nil {
		return 0, 0, nil, err
	}
	return int64(binary.BigEndian.Uint64(k[1:9])), db, k[9+n:], nil
}

func timeRangeUntil(prefix byte, now int64) (start, end []byte) {
	return []byte{prefix}, binary.BigEndian.AppendUint64([]byte{prefix}, uint64(now)+1)
}

// Field TTL records, in a hash version's score range (a hash has no score
// index): FieldTTLKey maps a field to its expiry (8), FieldOrderKey orders
// the fields by expiry (value empty).
const (
	fieldTTLTag   = 0
	fieldOrderTag = 1
)

// FieldTTLKey returns the key holding the expiry of a hash field.
func FieldTTLKey(db Slot, key []byte, version uint64, field []byte) []byte {
	dst := appendKeyed(make([]byte, 0, 15+len(key)+len(field)), PrefixScore, db, key, version)
	return append(append(dst, fieldTTLTag), field...)
}

// FieldOrderPrefix returns the prefix of a hash version's fields ordered
// by expiry; FieldOrderKey the key of one.
func FieldOrderPrefix(db Slot, key []byte, version uint64) []byte {
	return append(appendKeyed(make([]byte, 0, 23+len(key)), PrefixScore, db, key, version), fieldOrderTag)
}

// FieldOrderKey returns the key ordering field by its expiry at.
func FieldOrderKey(db Slot, key []byte, version uint64, at int64, field []byte) []byte {
	dst := binary.BigEndian.AppendUint64(FieldOrderPrefix(db, key, version), uint64(at))
	return append(dst, field...)
}

// DecodeFieldOrderSuffix splits what follows a FieldOrderPrefix into the
// expiry and the field (aliasing b).
func DecodeFieldOrderSuffix(b []byte) (at int64, field []byte, err error) {
	if len(b) < 8 {
		return 0, nil, ErrCorrupt
	}
	return int64(binary.BigEndian.Uint64(b)), b[8:], nil
}

// HashTTLKey returns the hash-TTL index key of (db, key) whose earliest
// field expiry is at or after at: 'f' | at (8) | db | key.
func HashTTLKey(at int64, db Slot, key []byte) []byte { return timeKey(PrefixHashTTL, at, db, key) }

// DecodeHashTTLKey inverts HashTTLKey. The user key aliases k.
func DecodeHashTTLKey(k []byte) (at int64, db Slot, key []byte, err error) {
	return decodeTimeKey(PrefixHashTTL, k)
}

// HashTTLRangeUntil returns the range of hash-TTL entries due at or
// before now.
func HashTTLRangeUntil(now int64) (start, end []byte) { return timeRangeUntil(PrefixHashTTL, now) }

// GarbageKey returns the key recording that (db, key, version) is dead.
func GarbageKey(db Slot, key []byte, version uint64) []byte {
	return appendKeyed(make([]byte, 0, 14+len(key)), PrefixGarbage, db, key, version)
}

// DecodeGarbageKey inverts GarbageKey. The user key aliases k.
func DecodeGarbageKey(k []byte) (db Slot, key []byte, version uint64, err error) {
	db, key, version, rest, err := decodeKeyed(k, PrefixGarbage)
	if err == nil && len(rest) != 0 {
		err = ErrCorrupt
	}
	return db, key, version, err
}

// DecodeSubKey splits a sub-key into its parts. Slices alias k.
func DecodeSubKey(k []byte) (db Slot, key []byte, version uint64, field []byte, err error) {
	return decodeKeyed(k, PrefixData)
}

// DecodeScoreKey splits a score-index key into its parts; rest is the
// sortable score and member (see DecodeScoreSuffix). Slices alias k.
func DecodeScoreKey(k []byte) (db Slot, key []byte, version uint64, rest []byte, err error) {
	return decodeKeyed(k, PrefixScore)
}

func decodeKeyed(k []byte, prefix byte) (db Slot, key []byte, version uint64, rest []byte, err error) {
	if len(k) < 14 || k[0] != prefix {
		return 0, nil, 0, nil, ErrCorrupt
	}
	db, sl, err := ReadSlot(k[1:])
	if err != nil {
		return 0, nil, 0, nil, err
	}
	k = k[1+sl:]
	if len(k) < 4 {
		return 0, nil, 0, nil, ErrCorrupt
	}
	n := uint64(binary.BigEndian.Uint32(k))
	if uint64(len(k)) < 4+n+8 {
		return 0, nil, 0, nil, ErrCorrupt
	}
	key = k[4 : 4+n]
	version = binary.BigEndian.Uint64(k[4+n:])
	return db, key, version, k[4+n+8:], nil
}

// ListField returns the sub-key field of list element i: its index,
// big-endian, so elements sort in list order.
func ListField(i uint64) []byte { return binary.BigEndian.AppendUint64(make([]byte, 0, 8), i) }

// DecodeListField inverts ListField; ok is false for a field that is not
// a list index.
func DecodeListField(field []byte) (i uint64, ok bool) {
	if len(field) != 8 {
		return 0, false
	}
	return binary.BigEndian.Uint64(field), true
}

// EncodeVersion encodes a version as a TTL-index value.
func EncodeVersion(v uint64) []byte { return binary.BigEndian.AppendUint64(nil, v) }

// DecodeVersion inverts EncodeVersion.
func DecodeVersion(b []byte) (uint64, error) {
	if len(b) != 8 {
		return 0, ErrCorrupt
	}
	return binary.BigEndian.Uint64(b), nil
}

// VersionHWMKey returns the system key under which a driver persists the
// high-water mark of the versions it has issued.
func VersionHWMKey() []byte { return []byte{PrefixSystem, 'v', 'h', 'w', 'm'} }

// OrphanCursorKey is the system key where the GC's orphan sweep resumes.
func OrphanCursorKey() []byte { return []byte{PrefixSystem, 'o', 'r', 'p', 'h', 'a', 'n'} }

// GCLeaseKey is the system key of the GC lease: on a store shared by
// several nodes, only the node holding it collects. Its value is
// EncodeLease's.
func GCLeaseKey() []byte { return []byte{PrefixSystem, 'g', 'c', 'l', 'e', 'a', 's', 'e'} }

// EncodeLease encodes a lease held by owner until unix ms until.
func EncodeLease(owner string, until int64) []byte {
	return append(binary.BigEndian.AppendUint64(nil, uint64(until)), owner...)
}

// DecodeLease decodes EncodeLease's bytes.
func DecodeLease(b []byte) (owner string, until int64, err error) {
	if len(b) < 8 {
		return "", 0, fmt.Errorf("codec: lease of %d bytes: %w", len(b), ErrCorrupt)
	}
	return string(b[8:]), int64(binary.BigEndian.Uint64(b)), nil
}

// FlushMarkerKey returns the system key holding logical database db's
// record (EncodeDBRecord): the slot its keys are stored under and that
// slot's flush marker — every meta of the slot whose version is below the
// marker is dead (FLUSHDB).
func FlushMarkerKey(db Slot) []byte {
	return AppendSlot([]byte{PrefixSystem, 'f', 'l', 'u', 's', 'h'}, db)
}

// RecordRange returns the [start, end) range of every database's record.
func RecordRange() (start, end []byte) {
	p := []byte{PrefixSystem, 'f', 'l', 'u', 's', 'h'}
	return p, PrefixEnd(p)
}

// DecodeRecordKey returns the database whose record key k is.
func DecodeRecordKey(k []byte) (Slot, error) {
	start, _ := RecordRange()
	if !bytes.HasPrefix(k, start) {
		return 0, ErrCorrupt
	}
	db, n, err := ReadSlot(k[len(start):])
	if err == nil && len(start)+n != len(k) {
		err = ErrCorrupt
	}
	return db, err
}

// EncodeDBRecord encodes a database record: the flush marker (8 bytes, big
// endian) then the slot byte. A logical database's keys are stored under
// its slot's db byte; SWAPDB exchanges two databases' records, so it moves
// no key.
func EncodeDBRecord(marker uint64, slot Slot) []byte {
	return AppendSlot(binary.BigEndian.AppendUint64(make([]byte, 0, 8+SlotLen(slot)), marker), slot)
}

// DecodeDBRecord inverts EncodeDBRecord. A record of 8 bytes (written
// before SWAPDB existed) is a marker alone: the database is its own slot.
func DecodeDBRecord(db Slot, b []byte) (marker uint64, slot Slot, err error) {
	if len(b) == 8 {
		return binary.BigEndian.Uint64(b), db, nil
	}
	if len(b) > 8 {
		if slot, n, err := ReadSlot(b[8:]); err == nil && 8+n == len(b) {
			return binary.BigEndian.Uint64(b), slot, nil
		}
	}
	return 0, 0, fmt.Errorf("codec: db record of %d bytes: %w", len(b), ErrCorrupt)
}

// PrefixEnd returns the smallest key greater than every key with prefix p, or
// nil if there is none (p is all 0xff).
func PrefixEnd(p []byte) []byte {
	end := append([]byte(nil), p...)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] != 0xff {
			end[i]++
			return end[:i+1]
		}
	}
	return nil
}

// ChunkField returns the sub-key field of a chunked string's chunk i.
func ChunkField(i uint64) []byte { return binary.BigEndian.AppendUint64(make([]byte, 0, 8), i) }

// DecodeChunkField decodes a ChunkField.
func DecodeChunkField(f []byte) (uint64, error) {
	if len(f) != 8 {
		return 0, ErrCorrupt
	}
	return binary.BigEndian.Uint64(f), nil
}

// ClusterMemberKey is the system key of cluster node id's member record
// (cluster mode): its announced address and the lease it renews.
func ClusterMemberKey(id string) []byte {
	return append([]byte{PrefixSystem, 'c', 'l', 'm', 0}, id...)
}

// ClusterMembers returns the range [start, end) of every member record.
func ClusterMembers() (start, end []byte) {
	return []byte{PrefixSystem, 'c', 'l', 'm', 0}, []byte{PrefixSystem, 'c', 'l', 'm', 1}
}

// ClusterMapKey is the system key of the cluster's slot map.
func ClusterMapKey() []byte { return []byte{PrefixSystem, 'c', 'l', 'm', 'a', 'p'} }
