package rdb

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// FileWriter writes a whole RDB file of version Version (Redis 7.0's, so
// a Redis 7.0 replica or server loads it) as a stream: a master's full
// sync, never the whole file in memory. Keys come as DUMP payloads, whose
// bodies are the file's value encodings; the CRC-64 is computed as the
// bytes go out. Its methods return the first write error again.
type FileWriter struct {
	w   *bufio.Writer
	crc uint64
	n   int64
	db  int // the database selected (-1: none yet)
	err error
}

// ErrTooNew is a DUMP payload of a later RDB version than the file's
// (a hash with field expiries): a Redis 7.0 reader could not load it.
var ErrTooNew = errors.New("rdb: the value needs a newer RDB version than Redis 7.0's")

// NewFileWriter starts a file on w with auxiliary fields (name, value:
// redis-ver, repl-id...), in order.
func NewFileWriter(w io.Writer, aux [][2]string) *FileWriter {
	f := &FileWriter{w: bufio.NewWriterSize(w, 64<<10), db: -1}
	f.write(fmt.Appendf(nil, "REDIS%04d", Version))
	for _, kv := range aux {
		b := appendString([]byte{opAux}, []byte(kv[0]))
		f.write(appendString(b, []byte(kv[1])))
	}
	return f
}

func (f *FileWriter) write(b []byte) {
	if f.err != nil {
		return
	}
	f.crc = CRC64(f.crc, b)
	n, err := f.w.Write(b)
	f.n += int64(n)
	f.err = err
}

// Function writes a function library's code.
func (f *FileWriter) Function(code []byte) error {
	f.write(appendString([]byte{OpFunction2}, code))
	return f.err
}

// Entry writes one key of database db, its expiry (unix ms, 0: none) and
// value, the DUMP payload p.
func (f *FileWriter) Entry(db int, key []byte, expireAt int64, p []byte) error {
	if f.err != nil {
		return f.err
	}
	if len(p) < 11 {
		return ErrChecksum
	}
	if v := binary.LittleEndian.Uint16(p[len(p)-10:]); v > Version {
		return ErrTooNew
	}
	body, err := Verify(p)
	if err != nil {
		return err
	}
	if db != f.db {
		f.write(appendLen([]byte{opSelectDB}, uint64(db)))
		f.db = db
	}
	if expireAt > 0 {
		f.write(binary.LittleEndian.AppendUint64([]byte{opExpireMS}, uint64(expireAt)))
	}
	f.write(appendString([]byte{body[0]}, key))
	f.write(body[1:])
	return f.err
}

// Close writes the EOF opcode and the checksum, flushes, and returns the
// file's size.
func (f *FileWriter) Close() (int64, error) {
	f.write([]byte{opEOF})
	if f.err == nil {
		sum := binary.LittleEndian.AppendUint64(nil, f.crc)
		n, err := f.w.Write(sum)
		f.n += int64(n)
		f.err = err
	}
	if f.err == nil {
		f.err = f.w.Flush()
	}
	return f.n, f.err
}
