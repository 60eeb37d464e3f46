package rdb

import (
	"bytes"
	"testing"
)

func TestCRC64KnownValue(t *testing.T) {
	// The check value of CRC-64/Jones (reflected, init 0, no final xor),
	// the one Redis's crc64 self-test uses.
	if got := CRC64(0, []byte("123456789")); got != 0xe9c6d914c4b8d9ca {
		t.Fatalf("crc64 = %#x", got)
	}
}

// Strings of every encoding survive DumpString, Verify and Decode;
// payloads from redis-server are checked in integration/dump_test.go.
func TestStringRoundTrip(t *testing.T) {
	for _, v := range []string{"", "hello", "12", "-129", "65536", "2147483648", "007", "x" + string(bytes.Repeat([]byte("y"), 20000))} {
		p := DumpString([]byte(v))
		body, err := Verify(p)
		if err != nil {
			t.Fatalf("%.20q: %v", v, err)
		}
		got, err := Decode(body)
		if err != nil || string(got.String) != v {
			t.Fatalf("%.20q: decoded %.20q %v", v, got.String, err)
		}
	}
}

func TestVerifyRejects(t *testing.T) {
	p := DumpString([]byte("hello"))
	bad := append([]byte(nil), p...)
	bad[1] ^= 1
	if _, err := Verify(bad); err != ErrChecksum {
		t.Fatal("flipped bit accepted")
	}
	newer := append([]byte(nil), p[:len(p)-10]...)
	newer = append(newer, 11, 0)
	newer = append(newer, make([]byte, 8)...)
	if _, err := Verify(newer); err != ErrChecksum {
		t.Fatal("newer version accepted")
	}
	if _, err := Verify([]byte("short")); err != ErrChecksum {
		t.Fatal("short payload accepted")
	}
}

func TestLZF(t *testing.T) {
	// "aaaaaaaaaa": literal 'a', then a back reference of 9 bytes at
	// distance 1: ctrl = (9-2)<<5 = 0xe0 (len 7 -> extra byte 0), offset 0.
	got, err := lzfDecompress([]byte{0x00, 'a', 0xe0, 0x00, 0x00}, 10)
	if err != nil || string(got) != "aaaaaaaaaa" {
		t.Fatalf("%q %v", got, err)
	}
	for _, in := range [][]byte{{0x05, 'a'}, {0x20, 0x05}, {0xe0}} {
		if _, err := lzfDecompress(in, 10); err != ErrFormat {
			t.Errorf("%x accepted", in)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add(DumpString([]byte("hello")))
	f.Add(DumpString([]byte("123")))
	f.Add([]byte{0, 0xc3, 0x05, 0x0a, 0x00, 'a', 0xe0, 0x00, 0x00})
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = Decode(b)
		if body, err := Verify(b); err == nil {
			_, _ = Decode(body)
		}
	})
}
