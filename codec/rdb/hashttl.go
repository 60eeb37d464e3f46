package rdb

import (
	"encoding/binary"
	"strconv"
)

// Hashes whose fields carry TTLs (Redis 7.4, RDB version 12): a
// TypeHashMetadata body is the earliest field expiry (8, little endian,
// unix ms), the field count, then per field its TTL (a length: 0 for none,
// else expiry - earliest + 1), field and value. TypeHashListpackEx is the
// earliest expiry, then a listpack of field, value, expiry (0: none)
// triplets. The pre-GA forms of 7.4's release candidates have no earliest
// expiry and absolute TTLs.
const (
	TypeHashMetadataPreGA   = 22
	TypeHashListpackExPreGA = 23
	TypeHashMetadata        = 24
	TypeHashListpackEx      = 25
)

// VersionFieldTTL is the RDB version of Redis 7.4, which DUMP writes for a
// hash with field TTLs (older servers refuse such a payload).
const VersionFieldTTL = 12

// maxFieldTTL is the latest field expiry Redis accepts (EB_EXPIRE_TIME_MAX).
const maxFieldTTL = 1<<48 - 1

// DumpHashTTL returns the DUMP payload of a hash whose fields carry TTLs:
// pairs as field, value, ...; ttls one per field (unix ms, 0 for none).
func DumpHashTTL(pairs [][]byte, ttls []int64) []byte {
	var earliest int64
	for _, t := range ttls {
		if t != 0 && (earliest == 0 || t < earliest) {
			earliest = t
		}
	}
	body := binary.LittleEndian.AppendUint64([]byte{TypeHashMetadata}, uint64(earliest))
	body = appendLen(body, uint64(len(ttls)))
	for i, t := range ttls {
		rel := uint64(0)
		if t != 0 {
			rel = uint64(t-earliest) + 1
		}
		body = appendLen(body, rel)
		body = appendString(body, pairs[2*i])
		body = appendString(body, pairs[2*i+1])
	}
	return seal(body, VersionFieldTTL)
}

// decodeHashTTL decodes the bodies above (type byte read) into a TypeHash
// value with TTLs.
func decodeHashTTL(r *reader, t byte) (Value, error) {
	v := Value{Type: TypeHash}
	var earliest uint64
	if t == TypeHashMetadata || t == TypeHashListpackEx {
		b, err := r.take(8)
		if err != nil {
			return Value{}, err
		}
		earliest = binary.LittleEndian.Uint64(b)
		if earliest > maxFieldTTL {
			return Value{}, ErrFormat
		}
	}
	if t == TypeHashListpackEx || t == TypeHashListpackExPreGA {
		s, err := r.str()
		if err != nil {
			return Value{}, ErrFormat
		}
		es, err := listpack(s)
		if err != nil || len(es)%3 != 0 {
			return Value{}, ErrFormat
		}
		for i := 0; i < len(es); i += 3 {
			at, err := strconv.ParseInt(string(es[i+2]), 10, 64)
			if err != nil || at < 0 || at > maxFieldTTL {
				return Value{}, ErrFormat
			}
			v.Elems = append(v.Elems, es[i], es[i+1])
			v.TTLs = append(v.TTLs, at)
		}
		return v, nil
	}
	n, err := r.count()
	if err != nil {
		return Value{}, err
	}
	for i := 0; i < n; i++ {
		ttl, special, err := r.length()
		if err != nil || special {
			return Value{}, ErrFormat
		}
		at := ttl
		if t == TypeHashMetadata && ttl != 0 {
			at = ttl + earliest - 1
		}
		if at > maxFieldTTL {
			return Value{}, ErrFormat
		}
		f, err := r.str()
		if err != nil {
			return Value{}, ErrFormat
		}
		val, err := r.str()
		if err != nil {
			return Value{}, ErrFormat
		}
		v.Elems = append(v.Elems, f, val)
		v.TTLs = append(v.TTLs, int64(at))
	}
	return v, nil
}
