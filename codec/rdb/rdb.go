package rdb

import (
	"encoding/binary"
	"errors"
	"math"
	"strconv"
)

// Version is the RDB version of Redis 7.0.
const Version = 10

// RDB type bytes.
const (
	TypeString       = 0
	TypeList         = 1
	TypeSet          = 2
	TypeZSet         = 3
	TypeHash         = 4
	TypeZSet2        = 5
	TypeSetIntset    = 11
	TypeHashListpack = 16
	TypeZSetListpack = 17
	TypeListQuick2   = 18
	// TypeSetListpack is a small set as Redis 7.2 and later write it (a
	// listpack of its members); decoded, not written.
	TypeSetListpack = 20
)

// Errors: a payload whose footer does not check, and one whose body does
// not decode.
var (
	ErrChecksum = errors.New("rdb: version or checksum wrong")
	ErrFormat   = errors.New("rdb: bad data format")
)

var crcTable = func() *[256]uint64 {
	const poly = 0x95ac9329ac4bc9b5 // 0xad93d23594c935a9 reflected
	var t [256]uint64
	for i := range t {
		c := uint64(i)
		for k := 0; k < 8; k++ {
			if c&1 != 0 {
				c = c>>1 ^ poly
			} else {
				c >>= 1
			}
		}
		t[i] = c
	}
	return &t
}()

// CRC64 is Redis's crc64 (Jones), starting from crc.
func CRC64(crc uint64, b []byte) uint64 {
	for _, x := range b {
		crc = crcTable[byte(crc)^x] ^ crc>>8
	}
	return crc
}

// Seal appends the footer to a body (type byte and payload).
func Seal(body []byte) []byte { return seal(body, Version) }

// seal appends the footer of RDB version version.
func seal(body []byte, version uint16) []byte {
	out := binary.LittleEndian.AppendUint16(body, version)
	return binary.LittleEndian.AppendUint64(out, CRC64(0, out))
}

// Verify checks a payload's footer and returns its body.
func Verify(p []byte) ([]byte, error) {
	if len(p) < 10 {
		return nil, ErrChecksum
	}
	footer := p[len(p)-10:]
	if binary.LittleEndian.Uint16(footer) > VersionFieldTTL {
		return nil, ErrChecksum
	}
	if binary.LittleEndian.Uint64(footer[2:]) != CRC64(0, p[:len(p)-8]) {
		return nil, ErrChecksum
	}
	return p[:len(p)-10], nil
}

// DumpString returns the DUMP payload of a string value: Redis's integer
// encoding for short canonical integers that fit 32 bits, else the raw
// bytes.
func DumpString(v []byte) []byte {
	body := []byte{TypeString}
	body = appendString(body, v)
	return Seal(body)
}

func appendString(b, v []byte) []byte {
	if len(v) <= 11 {
		if n, err := strconv.ParseInt(string(v), 10, 64); err == nil && strconv.FormatInt(n, 10) == string(v) {
			switch {
			case n >= -1<<7 && n < 1<<7:
				return append(b, 0xc0, byte(n))
			case n >= -1<<15 && n < 1<<15:
				return binary.LittleEndian.AppendUint16(append(b, 0xc1), uint16(n))
			case n >= -1<<31 && n < 1<<31:
				return binary.LittleEndian.AppendUint32(append(b, 0xc2), uint32(n))
			}
		}
	}
	return append(appendLen(b, uint64(len(v))), v...)
}

func appendLen(b []byte, n uint64) []byte {
	switch {
	case n < 1<<6:
		return append(b, byte(n))
	case n < 1<<14:
		return append(b, 0x40|byte(n>>8), byte(n))
	case n <= 0xffffffff:
		return binary.BigEndian.AppendUint32(append(b, 0x80), uint32(n))
	}
	return binary.BigEndian.AppendUint64(append(b, 0x81), n)
}

// reader decodes a body without reading past it.
type reader struct {
	b []byte
}

func (r *reader) byte() (byte, error) {
	if len(r.b) == 0 {
		return 0, ErrFormat
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c, nil
}

func (r *reader) take(n uint64) ([]byte, error) {
	if n > uint64(len(r.b)) {
		return nil, ErrFormat
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v, nil
}

// length reads a length; special is set (with the encoding in n) for the
// string encodings 0xc0-0xc3.
func (r *reader) length() (n uint64, special bool, err error) {
	c, err := r.byte()
	if err != nil {
		return 0, false, err
	}
	switch c >> 6 {
	case 0:
		return uint64(c & 0x3f), false, nil
	case 1:
		d, err := r.byte()
		return uint64(c&0x3f)<<8 | uint64(d), false, err
	case 3:
		return uint64(c & 0x3f), true, nil
	}
	switch c {
	case 0x80:
		b, err := r.take(4)
		if err != nil {
			return 0, false, err
		}
		return uint64(binary.BigEndian.Uint32(b)), false, nil
	case 0x81:
		b, err := r.take(8)
		if err != nil {
			return 0, false, err
		}
		return binary.BigEndian.Uint64(b), false, nil
	}
	return 0, false, ErrFormat
}

// maxString bounds a decoded string (proto-max-bulk-len).
const maxString = 512 << 20

func (r *reader) str() ([]byte, error) {
	n, special, err := r.length()
	if err != nil {
		return nil, err
	}
	if !special {
		v, err := r.take(n)
		return append([]byte(nil), v...), err
	}
	switch n {
	case 0:
		b, err := r.take(1)
		if err != nil {
			return nil, err
		}
		return strconv.AppendInt(nil, int64(int8(b[0])), 10), nil
	case 1:
		b, err := r.take(2)
		if err != nil {
			return nil, err
		}
		return strconv.AppendInt(nil, int64(int16(binary.LittleEndian.Uint16(b))), 10), nil
	case 2:
		b, err := r.take(4)
		if err != nil {
			return nil, err
		}
		return strconv.AppendInt(nil, int64(int32(binary.LittleEndian.Uint32(b))), 10), nil
	case 3:
		clen, s1, err := r.length()
		if err != nil || s1 {
			return nil, ErrFormat
		}
		ulen, s2, err := r.length()
		if err != nil || s2 || ulen > maxString {
			return nil, ErrFormat
		}
		c, err := r.take(clen)
		if err != nil {
			return nil, err
		}
		return lzfDecompress(c, int(ulen))
	}
	return nil, ErrFormat
}

// lzfDecompress expands LZF data to exactly n bytes.
func lzfDecompress(in []byte, n int) ([]byte, error) {
	out := make([]byte, 0, n)
	for i := 0; i < len(in); {
		ctrl := int(in[i])
		i++
		if ctrl < 32 { // a literal run of ctrl+1 bytes
			l := ctrl + 1
			if i+l > len(in) || len(out)+l > n {
				return nil, ErrFormat
			}
			out = append(out, in[i:i+l]...)
			i += l
			continue
		}
		l := ctrl >> 5 // a back reference
		if l == 7 {
			if i >= len(in) {
				return nil, ErrFormat
			}
			l += int(in[i])
			i++
		}
		if i >= len(in) {
			return nil, ErrFormat
		}
		ref := len(out) - (ctrl&0x1f)<<8 - int(in[i]) - 1
		i++
		l += 2
		if ref < 0 || len(out)+l > n {
			return nil, ErrFormat
		}
		for k := 0; k < l; k++ { // may overlap what it writes
			out = append(out, out[ref+k])
		}
	}
	if len(out) != n {
		return nil, ErrFormat
	}
	return out, nil
}

// Value is a decoded DUMP body: its kind (TypeString, TypeList, TypeSet,
// TypeZSet2, TypeHash, TypeStream2 or TypeModule2, whatever encoding it
// came in) and its contents.
type Value struct {
	Type    byte
	String  []byte
	Elems   [][]byte  // list elements, set members, or hash field, value, ...
	Scores  []float64 // sorted-set scores, one per member in Elems
	TTLs    []int64   // a hash's field expiries (unix ms, 0: none), one per field; nil: none
	Stream  *Stream   // TypeStream2
	Bloom   *Bloom    // TypeModule2: a RedisBloom filter, or
	CMS     *CMS      // a count-min sketch, or
	Cuckoo  *Cuckoo   // a Cuckoo filter, or
	TopK    *TopK     // a Top-K, or
	TDigest *TDigest  // a t-digest, or
	JSON    []byte    // a JSON document's text
}

// maxElems bounds a decoded collection's announced length before it is
// read (each element takes at least one byte).
func (r *reader) count() (int, error) {
	n, special, err := r.length()
	if err != nil || special || n > uint64(len(r.b)) {
		return 0, ErrFormat
	}
	return int(n), nil
}

// Decode decodes a verified body.
func Decode(body []byte) (Value, error) {
	r := &reader{b: body}
	t, err := r.byte()
	if err != nil {
		return Value{}, err
	}
	return r.value(t)
}

// value reads a value of RDB type t.
func (r *reader) value(t byte) (Value, error) {
	v := Value{Type: t}
	switch t {
	case TypeString:
		s, err := r.str()
		if err != nil || len(s) > maxString {
			return Value{}, ErrFormat
		}
		v.String = s
		return v, nil
	case TypeList, TypeSet, TypeHash:
		n, err := r.count()
		if err != nil {
			return Value{}, err
		}
		if t == TypeHash {
			n *= 2
		}
		for i := 0; i < n; i++ {
			e, err := r.str()
			if err != nil {
				return Value{}, ErrFormat
			}
			v.Elems = append(v.Elems, e)
		}
		return v, nil
	case TypeZSet, TypeZSet2:
		n, err := r.count()
		if err != nil {
			return Value{}, err
		}
		for i := 0; i < n; i++ {
			m, err := r.str()
			if err != nil {
				return Value{}, ErrFormat
			}
			var f float64
			if t == TypeZSet2 {
				b, err := r.take(8)
				if err != nil {
					return Value{}, err
				}
				f = math.Float64frombits(binary.LittleEndian.Uint64(b))
			} else if f, err = r.oldDouble(); err != nil {
				return Value{}, err
			}
			if math.IsNaN(f) {
				return Value{}, ErrFormat
			}
			v.Elems, v.Scores = append(v.Elems, m), append(v.Scores, f)
		}
		v.Type = TypeZSet2
		return v, nil
	case TypeSetIntset, TypeSetListpack:
		s, err := r.str()
		if err != nil {
			return Value{}, ErrFormat
		}
		members := listpack
		if t == TypeSetIntset {
			members = intset
		}
		if v.Elems, err = members(s); err != nil {
			return Value{}, err
		}
		v.Type = TypeSet
		return v, nil
	case TypeHashMetadata, TypeHashMetadataPreGA, TypeHashListpackEx, TypeHashListpackExPreGA:
		return decodeHashTTL(r, t)
	case TypeHashListpack, TypeZSetListpack:
		s, err := r.str()
		if err != nil {
			return Value{}, ErrFormat
		}
		es, err := listpack(s)
		if err != nil || len(es)%2 != 0 {
			return Value{}, ErrFormat
		}
		if t == TypeHashListpack {
			v.Type, v.Elems = TypeHash, es
			return v, nil
		}
		v.Type = TypeZSet2
		for i := 0; i < len(es); i += 2 {
			f, err := strconv.ParseFloat(string(es[i+1]), 64)
			if err != nil || math.IsNaN(f) {
				return Value{}, ErrFormat
			}
			v.Elems, v.Scores = append(v.Elems, es[i]), append(v.Scores, f)
		}
		return v, nil
	case TypeListQuick2:
		nodes, err := r.count()
		if err != nil {
			return Value{}, err
		}
		for i := 0; i < nodes; i++ {
			container, special, err := r.length()
			if err != nil || special {
				return Value{}, ErrFormat
			}
			s, err := r.str()
			if err != nil {
				return Value{}, ErrFormat
			}
			switch container {
			case 1: // plain: one element
				v.Elems = append(v.Elems, s)
			case 2: // packed: a listpack
				es, err := listpack(s)
				if err != nil || len(es) == 0 {
					return Value{}, ErrFormat
				}
				v.Elems = append(v.Elems, es...)
			default:
				return Value{}, ErrFormat
			}
		}
		v.Type = TypeList
		return v, nil
	case TypeStream, TypeStream2, TypeStream3:
		s, err := r.decodeStream(t)
		if err != nil {
			return Value{}, ErrFormat
		}
		v.Type, v.Stream = TypeStream2, s
		return v, nil
	case TypeModule2:
		err := r.module(&v)
		if errors.Is(err, ErrModule) {
			return Value{}, err
		}
		if err != nil {
			return Value{}, ErrFormat
		}
		return v, nil
	}
	return Value{}, ErrFormat
}

// oldDouble reads RDB_TYPE_ZSET's score: a length byte, then that many
// ASCII bytes; 253-255 stand for NaN, +inf and -inf.
func (r *reader) oldDouble() (float64, error) {
	n, err := r.byte()
	if err != nil {
		return 0, err
	}
	switch n {
	case 253:
		return math.NaN(), nil
	case 254:
		return math.Inf(1), nil
	case 255:
		return math.Inf(-1), nil
	}
	b, err := r.take(uint64(n))
	if err != nil {
		return 0, err
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return 0, ErrFormat
	}
	return f, nil
}

// intset decodes an intset: encoding (4, LE: 2, 4 or 8), length (4), then
// the integers, little-endian.
func intset(b []byte) ([][]byte, error) {
	if len(b) < 8 {
		return nil, ErrFormat
	}
	size := binary.LittleEndian.Uint32(b)
	n := binary.LittleEndian.Uint32(b[4:])
	b = b[8:]
	if size != 2 && size != 4 && size != 8 || uint64(n)*uint64(size) != uint64(len(b)) {
		return nil, ErrFormat
	}
	out := make([][]byte, 0, n)
	for i := uint32(0); i < n; i++ {
		var x int64
		switch size {
		case 2:
			x = int64(int16(binary.LittleEndian.Uint16(b)))
		case 4:
			x = int64(int32(binary.LittleEndian.Uint32(b)))
		default:
			x = int64(binary.LittleEndian.Uint64(b))
		}
		out = append(out, strconv.AppendInt(nil, x, 10))
		b = b[size:]
	}
	return out, nil
}

// listpack decodes a listpack's entries (integers as decimal strings):
// total bytes (4, LE), count (2), entries each followed by its back-length,
// and 0xff.
func listpack(b []byte) ([][]byte, error) {
	if len(b) < 7 || binary.LittleEndian.Uint32(b) != uint32(len(b)) || b[len(b)-1] != 0xff {
		return nil, ErrFormat
	}
	p := b[6 : len(b)-1]
	var out [][]byte
	for len(p) > 0 {
		c := p[0]
		var head, size int // encoding bytes, data bytes
		var val []byte
		var ival int64
		isInt := true
		switch {
		case c&0x80 == 0:
			head, ival = 1, int64(c&0x7f)
		case c&0xc0 == 0x80:
			head, size, isInt = 1, int(c&0x3f), false
		case c&0xe0 == 0xc0:
			if len(p) < 2 {
				return nil, ErrFormat
			}
			head = 2
			u := uint16(c&0x1f)<<8 | uint16(p[1])
			ival = int64(int16(u<<3) >> 3)
		case c&0xf0 == 0xe0:
			if len(p) < 2 {
				return nil, ErrFormat
			}
			head, size, isInt = 2, int(c&0x0f)<<8|int(p[1]), false
		case c == 0xf0:
			if len(p) < 5 {
				return nil, ErrFormat
			}
			head, size, isInt = 5, int(binary.LittleEndian.Uint32(p[1:])), false
		case c >= 0xf1 && c <= 0xf4:
			n := map[byte]int{0xf1: 2, 0xf2: 3, 0xf3: 4, 0xf4: 8}[c]
			if len(p) < 1+n {
				return nil, ErrFormat
			}
			head = 1 + n
			var u uint64
			for i := n - 1; i >= 0; i-- {
				u = u<<8 | uint64(p[1+i])
			}
			ival = int64(u<<(64-8*uint(n))) >> (64 - 8*uint(n))
		default:
			return nil, ErrFormat
		}
		if size < 0 || head+size > len(p) {
			return nil, ErrFormat
		}
		if isInt {
			val = strconv.AppendInt(nil, ival, 10)
		} else {
			val = append([]byte(nil), p[head:head+size]...)
		}
		l := head + size
		back := backlen(l)
		if l+back > len(p) {
			return nil, ErrFormat
		}
		out = append(out, val)
		p = p[l+back:]
	}
	if n := binary.LittleEndian.Uint16(b[4:]); n != 65535 && int(n) != len(out) {
		return nil, ErrFormat
	}
	return out, nil
}

// backlen is the size of an entry's back-length field, with Redis's
// thresholds.
func backlen(l int) int {
	switch {
	case l <= 127:
		return 1
	case l < 16383:
		return 2
	case l < 2097151:
		return 3
	case l < 268435455:
		return 4
	}
	return 5
}

// DumpCollection returns the DUMP payload of a list (TypeList), set
// (TypeSet) or hash (TypeHash, elems as field, value, ...), or with
// scores of a sorted set (TypeZSet2, highest score first as Redis writes
// it).
func DumpCollection(t byte, elems [][]byte, scores []float64) []byte {
	body := []byte{t}
	n := len(elems)
	if t == TypeHash {
		n /= 2
	}
	body = appendLen(body, uint64(n))
	for i, e := range elems {
		body = appendString(body, e)
		if t == TypeZSet2 {
			body = binary.LittleEndian.AppendUint64(body, math.Float64bits(scores[i]))
		}
	}
	return Seal(body)
}
