/*
 * Copyright (c) 2026 The rekv Authors. All rights reserved.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 *
 */

package io

import (
	"bytes"
	"fmt"
	"testing"

	"golang.org/x/sys/unix"
)

func rawPair(t *testing.T) (a, b int) {
	t.Helper()
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = unix.Close(fds[0]); _ = unix.Close(fds[1]) })
	return fds[0], fds[1]
}

// head is buf's first n bytes (none for a failed call's -1).
func head(buf []byte, n int) []byte {
	if n < 0 {
		return nil
	}
	return buf[:n]
}

// TestRawCalls: the raw calls move the same bytes and report the same
// errors as x/sys/unix's (EAGAIN comparable with ==, as gnet checks it;
// -1 for a failed call), writev past its 16 stacked vectors included.
func TestRawCalls(t *testing.T) {
	a, b := rawPair(t)
	buf := make([]byte, 1<<16)
	if n, err := RawRead(b, buf); n != -1 || err != unix.EAGAIN {
		t.Fatalf("read of an empty socket: %d, %v; want -1, EAGAIN", n, err)
	}
	for _, count := range []int{1, 3, 16, 17, 100} {
		var iov [][]byte
		var want []byte
		for i := 0; i < count; i++ {
			p := []byte(fmt.Sprintf("part %d;", i))
			iov = append(iov, p, nil) // empty buffers are left out
			want = append(want, p...)
		}
		if n, err := RawWritev(a, iov); n != len(want) || err != nil {
			t.Fatalf("writev of %d buffers: %d, %v; want %d, nil", count, n, err, len(want))
		}
		n, err := RawRead(b, buf)
		if err != nil || !bytes.Equal(buf[:n], want) {
			t.Fatalf("read after writev of %d buffers: %q, %v; want %q", count, head(buf, n), err, want)
		}
	}
	if n, err := RawWritev(a, [][]byte{nil, {}}); n != 0 || err != nil {
		t.Fatalf("writev of empty buffers: %d, %v; want 0, nil", n, err)
	}
	if n, err := RawWrite(a, []byte("tail")); n != 4 || err != nil {
		t.Fatalf("write: %d, %v", n, err)
	}
	if n, err := RawRead(b, buf[:2]); n != 2 || err != nil || string(buf[:2]) != "ta" {
		t.Fatalf("short read: %q, %v", head(buf, n), err)
	}
	if n, err := RawRead(b, buf); n != 2 || err != nil || string(buf[:2]) != "il" {
		t.Fatalf("read of the rest: %q, %v", head(buf, n), err)
	}
	// A full socket refuses a write as unix.Write does.
	big := make([]byte, 1<<20)
	for i := 0; ; i++ {
		n, err := RawWrite(a, big)
		if err == unix.EAGAIN {
			if n != -1 {
				t.Fatalf("a refused write counts %d; want -1", n)
			}
			break
		}
		if err != nil || i > 1000 {
			t.Fatalf("filling the socket: %d, %v after %d writes", n, err, i)
		}
	}
	if _, err := RawWritev(a, [][]byte{[]byte("x")}); err != unix.EAGAIN {
		t.Fatalf("writev to a full socket: %v; want EAGAIN", err)
	}
	if _, err := RawRead(-1, buf); err != unix.EBADF {
		t.Fatalf("read of fd -1: %v; want EBADF", err)
	}
	if _, err := RawRead(b, nil); err != nil {
		t.Fatalf("read into nothing: %v", err)
	}
}
