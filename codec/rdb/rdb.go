// Package rdb is the part of Redis's RDB serialization that DUMP and
// RESTORE exchange: a value's type byte and payload, then the RDB version
// (2 bytes, little-endian) and a CRC-64 (Jones polynomial, reflected, 8
// bytes little-endian) of everything before it. Pure functions, no I/O.
//
// Only strings are encoded and decoded so far (RDB type 0, with the
// integer and LZF string encodings); other types are refused as a bad
// format.
//
// Invariants:
//   - Dump writes RDB version 10 (Redis 7.0) and never compresses;
//     Verify accepts any version up to 10, as Redis 7.0 does.
//   - Decoders never read past their input: a short or malformed payload
//     is ErrFormat, whatever its bytes.
package rdb

import (
	"encoding/binary"
	"errors"
	"strconv"
)

// Version is the RDB version of Redis 7.0.
const Version = 10

// TypeString is RDB_TYPE_STRING.
const TypeString = 0

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
func Seal(body []byte) []byte {
	out := binary.LittleEndian.AppendUint16(body, Version)
	return binary.LittleEndian.AppendUint64(out, CRC64(0, out))
}

// Verify checks a payload's footer and returns its body.
func Verify(p []byte) ([]byte, error) {
	if len(p) < 10 {
		return nil, ErrChecksum
	}
	footer := p[len(p)-10:]
	if binary.LittleEndian.Uint16(footer) > Version {
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

// Value is a decoded DUMP body: its RDB type and, for strings, the bytes.
type Value struct {
	Type   byte
	String []byte
}

// Decode decodes a verified body.
func Decode(body []byte) (Value, error) {
	r := &reader{b: body}
	t, err := r.byte()
	if err != nil {
		return Value{}, err
	}
	switch t {
	case TypeString:
		s, err := r.str()
		if err != nil || len(s) > maxString {
			return Value{}, ErrFormat
		}
		return Value{Type: t, String: s}, nil
	}
	return Value{}, ErrFormat
}
