package rdb

import (
	"encoding/binary"
	"errors"
	"fmt"
	"reflect"
	"testing"
)

// body returns a DUMP payload's type byte and value, without its footer.
func body(payload []byte) []byte { return payload[:len(payload)-10] }

// fileKey appends a key (its type byte, name, value) taken from a DUMP
// payload.
func fileKey(b []byte, key string, payload []byte) []byte {
	v := body(payload)
	b = append(b, v[0])
	b = appendString(b, []byte(key))
	return append(b, v[1:]...)
}

// sealFile appends the EOF opcode and the file's checksum.
func sealFile(b []byte) []byte {
	b = append(b, opEOF)
	return binary.LittleEndian.AppendUint64(b, CRC64(0, b))
}

const library = "#!lua name=lib\nredis.register_function('f', function() return 1 end)"

// sampleFile is a file of Redis 7.0's shape: auxiliary fields, two
// databases, an expiry, a function library, every plain type.
func sampleFile() ([]byte, []string) {
	b := []byte("REDIS0010")
	b = appendString(append(b, opAux), []byte("redis-ver"))
	b = appendString(b, []byte("7.0.15"))
	b = appendString(append(b, opAux), []byte("aof-base"))
	b = appendString(b, []byte("0"))
	b = appendString(append(b, OpFunction2), []byte(library))
	b = append(b, opSelectDB, 0, opResizeDB, 3, 1)
	b = fileKey(b, "s", DumpString([]byte("hello")))
	b = append(b, opExpireMS)
	b = binary.LittleEndian.AppendUint64(b, 1893456000000)
	b = fileKey(b, "n", DumpString([]byte("12345")))
	b = append(b, opIdle, 5) // LRU and LFU data are skipped
	b = fileKey(b, "l", DumpCollection(TypeList, [][]byte{[]byte("a"), []byte("b")}, nil))
	b = append(b, opSelectDB, 3, opSlotInfo, 1, 2, 0)
	b = append(b, opExpireSecs)
	b = binary.LittleEndian.AppendUint32(b, 1893456000)
	b = append(b, opFreq, 9)
	b = fileKey(b, "h", DumpCollection(TypeHash, [][]byte{[]byte("f"), []byte("v")}, nil))
	b = fileKey(b, "z", DumpCollection(TypeZSet2, [][]byte{[]byte("m")}, []float64{2.5}))
	b = fileKey(b, "t", DumpCollection(TypeSet, [][]byte{[]byte("x")}, nil))
	return sealFile(b), []string{
		"aux redis-ver=7.0.15", "aux aof-base=0", fmt.Sprintf("function %d", len(library)),
		`0 "s" 0 {0 [104 101 108 108 111]}`, `0 "n" 1893456000000 {0 [49 50 51 52 53]}`,
		`0 "l" 0 {1 [a b]}`, `3 "h" 1893456000000 {4 [f v]}`, `3 "z" 0 {5 [m] [2.5]}`, `3 "t" 0 {2 [x]}`,
	}
}

// readAll reads a file and describes what the handler got.
func readAll(b []byte) ([]string, int, error) {
	var got []string
	v, err := ReadFile(b, FileHandler{
		Aux:      func(k, v []byte) error { got = append(got, fmt.Sprintf("aux %s=%s", k, v)); return nil },
		Function: func(code []byte) error { got = append(got, fmt.Sprintf("function %d", len(code))); return nil },
		Entry: func(e Entry) error {
			val := fmt.Sprintf("{%d %v}", e.Value.Type, e.Value.String)
			if e.Value.Elems != nil {
				val = fmt.Sprintf("{%d %s}", e.Value.Type, e.Value.Elems)
				if e.Value.Scores != nil {
					val = fmt.Sprintf("{%d %s %v}", e.Value.Type, e.Value.Elems, e.Value.Scores)
				}
			}
			got = append(got, fmt.Sprintf("%d %q %d %s", e.DB, e.Key, e.ExpireAt, val))
			return nil
		},
	})
	return got, v, err
}

func TestReadFile(t *testing.T) {
	file, want := sampleFile()
	got, v, err := readAll(file)
	if err != nil || v != 10 || !reflect.DeepEqual(got, want) {
		t.Fatalf("ReadFile: version %d, %v\n got %q\nwant %q", v, err, got, want)
	}

	// Each entry's payload is its DUMP body after the type byte.
	var keys int
	_, err = ReadFile(file, FileHandler{Entry: func(e Entry) error {
		keys++
		v, err := Decode(append([]byte{e.Type}, e.Payload...))
		if err != nil || !reflect.DeepEqual(v, e.Value) {
			return fmt.Errorf("key %q: payload decodes to %+v (%v), entry holds %+v", e.Key, v, err, e.Value)
		}
		return nil
	}})
	if err != nil || keys != 6 {
		t.Fatalf("payloads: %v (%d keys)", err, keys)
	}

	// A checksum of zero was not computed: accepted. A wrong one is not.
	zero := append([]byte(nil), file...)
	clear(zero[len(zero)-8:])
	if _, _, err := readAll(zero); err != nil {
		t.Fatalf("zero checksum: %v", err)
	}
	bad := append([]byte(nil), file...)
	bad[len(bad)-1] ^= 1
	if _, _, err := readAll(bad); !errors.Is(err, ErrChecksum) {
		t.Fatalf("wrong checksum: %v", err)
	}
	// Every cut short of the whole file fails, and never reads past it.
	for n := range len(file) {
		if _, _, err := readAll(file[:n]); err == nil {
			t.Fatalf("a file cut at %d of %d bytes was read", n, len(file))
		}
	}
	// Bytes after the checksum are not a file Redis wrote.
	if _, _, err := readAll(append(append([]byte(nil), file...), 0)); !errors.Is(err, ErrFormat) {
		t.Fatalf("a trailing byte: %v", err)
	}

	// A handler's error stops the reading and is returned.
	stop := errors.New("stop")
	n := 0
	if _, err := ReadFile(file, FileHandler{Entry: func(Entry) error { n++; return stop }}); err != stop || n != 1 {
		t.Fatalf("handler error: %v after %d keys", err, n)
	}

	for _, c := range []struct {
		name string
		file []byte
		want error
	}{
		{"not RDB", []byte("RESP0010\xff"), ErrFormat},
		{"version 13", sealFile([]byte("REDIS0013")), ErrFormat},
		{"version text", sealFile([]byte("REDIS00x1")), ErrFormat},
		{"module value", sealFile(append([]byte("REDIS0010"), TypeModule2, 1, 'k', 0)), ErrModule},
		{"module aux", sealFile(append([]byte("REDIS0010"), opModuleAux, 0)), ErrModule},
		{"pre-GA function", sealFile(append([]byte("REDIS0010"), OpFunctionPreGA, 0)), ErrFunctionPreGA},
		{"unknown type", sealFile(append([]byte("REDIS0010"), 99, 1, 'k', 0)), ErrFormat},
		{"no EOF", []byte("REDIS0010"), ErrFormat},
	} {
		if _, _, err := readAll(c.file); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}

	// Before version 5 there is no checksum.
	old := append([]byte("REDIS0004"), body(DumpString([]byte("v")))[0])
	old = appendString(old, []byte("k"))
	old = append(append(old, body(DumpString([]byte("v")))[1:]...), opEOF)
	if got, _, err := readAll(old); err != nil || len(got) != 1 {
		t.Fatalf("version 4: %q %v", got, err)
	}
}

func FuzzReadFile(f *testing.F) {
	file, _ := sampleFile()
	f.Add(file)
	f.Add(sealFile([]byte("REDIS0010")))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _, _ = readAll(b)
	})
}
