package rdb

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
)

// Whole RDB files: what SAVE writes and what a master sends a replica in
// a full sync. A file is "REDIS" and a four-digit version, then opcodes
// and keys, then the EOF opcode and (from version 5) a CRC-64 of all
// before it, zero when the writer did not compute one. ReadFile walks one
// held in memory (a replica maps the file it received) and hands each key,
// auxiliary field and function library to a handler; it never reads past
// its input, and a malformed file is ErrFormat wherever it breaks.

// File opcodes (Redis 7.0, and SLOT_INFO of 7.4).
const (
	opSlotInfo   = 244
	opModuleAux  = 247
	opIdle       = 248
	opFreq       = 249
	opAux        = 250
	opResizeDB   = 251
	opExpireMS   = 252
	opExpireSecs = 253
	opSelectDB   = 254
	opEOF        = 255
)

// typeModulePreGA is a module value type of Redis 4.0 release
// candidates (TypeModule2 is the current one).
const typeModulePreGA = 6

// MaxFileVersion is the newest RDB file version ReadFile reads (Redis
// 7.4's); the types and opcodes it knows are those of Redis 7.0 and the
// hash field expiries and slot information of later versions.
const MaxFileVersion = 12

// ErrModule is a file holding module data rekv cannot load: a module's
// auxiliary data, or a value of a module type other than RedisBloom's
// Bloom filter.
var ErrModule = errors.New("rdb: the file holds module data, which rekv cannot load")

// Entry is one key of a file: its database, name, value, and expiry
// (unix milliseconds; 0 without one). Type and Payload are the value as
// the file holds it (a slice of the file): Seal(append([]byte{Type},
// Payload...)) is its DUMP payload, which RESTORE takes.
type Entry struct {
	DB       int
	Key      []byte
	Value    Value
	ExpireAt int64
	Type     byte
	Payload  []byte
}

// FileHandler receives what ReadFile finds, in the file's order; any of
// its functions may be nil. An error returned stops the reading and is
// ReadFile's error.
type FileHandler struct {
	Aux      func(key, value []byte) error
	Entry    func(Entry) error
	Function func(code []byte) error // a function library's code
}

// ReadFile reads the RDB file in b and returns its version.
func ReadFile(b []byte, h FileHandler) (version int, err error) {
	if len(b) < 9 || !bytes.Equal(b[:5], []byte("REDIS")) {
		return 0, fmt.Errorf("%w: not an RDB file", ErrFormat)
	}
	version, err = strconv.Atoi(string(b[5:9]))
	if err != nil || version < 1 || version > MaxFileVersion {
		return 0, fmt.Errorf("%w: RDB version %q", ErrFormat, b[5:9])
	}
	r := &reader{b: b[9:]}
	db := 0
	var expireAt int64
	for {
		op, err := r.byte()
		if err != nil {
			return version, fmt.Errorf("%w: the file ends before its EOF opcode", ErrFormat)
		}
		switch op {
		case opEOF:
			return version, r.footer(b, version)
		case opSelectDB:
			n, err := r.plainLength()
			if err != nil || n > 1<<31 {
				return version, ErrFormat
			}
			db = int(n)
		case opResizeDB:
			if _, err := r.plainLength(); err != nil {
				return version, err
			}
			if _, err := r.plainLength(); err != nil {
				return version, err
			}
		case opSlotInfo:
			for range 3 {
				if _, err := r.plainLength(); err != nil {
					return version, err
				}
			}
		case opExpireMS:
			v, err := r.take(8)
			if err != nil {
				return version, err
			}
			expireAt = int64(binary.LittleEndian.Uint64(v))
		case opExpireSecs:
			v, err := r.take(4)
			if err != nil {
				return version, err
			}
			expireAt = int64(binary.LittleEndian.Uint32(v)) * 1000
		case opIdle:
			if _, err := r.plainLength(); err != nil {
				return version, err
			}
		case opFreq:
			if _, err := r.byte(); err != nil {
				return version, err
			}
		case opAux:
			k, err := r.str()
			if err != nil {
				return version, ErrFormat
			}
			v, err := r.str()
			if err != nil {
				return version, ErrFormat
			}
			if h.Aux != nil {
				if err := h.Aux(k, v); err != nil {
					return version, err
				}
			}
		case OpFunction2:
			code, err := r.library()
			if err != nil {
				return version, err
			}
			if h.Function != nil {
				if err := h.Function(code); err != nil {
					return version, err
				}
			}
		case OpFunctionPreGA:
			return version, ErrFunctionPreGA
		case opModuleAux, typeModulePreGA:
			return version, ErrModule
		default: // a key: its value's type, its name, its value
			key, err := r.str()
			if err != nil || len(key) > maxString {
				return version, ErrFormat
			}
			at := r.b
			v, err := r.value(op)
			if err != nil {
				return version, fmt.Errorf("key %q: %w", key, err)
			}
			payload := at[:len(at)-len(r.b)]
			if h.Entry != nil {
				if err := h.Entry(Entry{DB: db, Key: key, Value: v, ExpireAt: expireAt, Type: op, Payload: payload}); err != nil {
					return version, err
				}
			}
			expireAt = 0
		}
	}
}

// plainLength reads a length that is not a string encoding.
func (r *reader) plainLength() (uint64, error) {
	n, special, err := r.length()
	if err != nil || special {
		return 0, ErrFormat
	}
	return n, nil
}

// footer checks what follows the EOF opcode of file: from version 5 the
// CRC-64 of everything before it (zero: not computed), and nothing after.
func (r *reader) footer(file []byte, version int) error {
	if version < 5 {
		if len(r.b) != 0 {
			return fmt.Errorf("%w: bytes after the EOF opcode", ErrFormat)
		}
		return nil
	}
	if len(r.b) != 8 {
		return fmt.Errorf("%w: %d bytes after the EOF opcode, want the 8 of its checksum", ErrFormat, len(r.b))
	}
	want := binary.LittleEndian.Uint64(r.b)
	if want != 0 && CRC64(0, file[:len(file)-8]) != want {
		return ErrChecksum
	}
	return nil
}
