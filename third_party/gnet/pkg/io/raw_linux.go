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
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// RawRead, RawWrite and RawWritev are read(2), write(2) and writev(2)
// for a non-blocking socket, made without entering Go's system-call
// state (added for rekv). Such a call never blocks, and the state only
// costs: a goroutine in a system call holds no P, so on one P sysmon
// takes the P from a call it finds twice (one longer than its tick, 20 us
// when busy; a loopback write runs the receiver's TCP input and wake-up)
// and hands it to another thread, then polls every 20 us for a
// millisecond, each poll a thread switch on the event loop's CPU. The
// price: a garbage collection waiting to stop the world waits for the
// call to return (a write copies at most a socket buffer).

// RawRead reads from a non-blocking fd into p.
func RawRead(fd int, p []byte) (int, error) { return rawBuffer(unix.SYS_READ, fd, p) }

// RawWrite writes p to a non-blocking fd.
func RawWrite(fd int, p []byte) (int, error) { return rawBuffer(unix.SYS_WRITE, fd, p) }

// rawBuffer makes the raw call trap (read or write) on fd and p.
func rawBuffer(trap uintptr, fd int, p []byte) (int, error) {
	var b unsafe.Pointer
	if len(p) > 0 {
		b = unsafe.Pointer(&p[0])
	}
	r, _, e := syscall.RawSyscall(trap, uintptr(fd), uintptr(b), uintptr(len(p)))
	return rawResult(r, e)
}

// RawWritev writes the buffers of iov, in order, to a non-blocking fd;
// empty ones are left out (none: 0, nil). Callers keep iov under the
// kernel's IOV_MAX, as for Writev.
func RawWritev(fd int, iov [][]byte) (int, error) {
	var stack [16]unix.Iovec
	vecs := stack[:0]
	for _, b := range iov {
		if len(b) == 0 {
			continue
		}
		v := unix.Iovec{Base: &b[0]}
		v.SetLen(len(b))
		vecs = append(vecs, v)
	}
	if len(vecs) == 0 {
		return 0, nil
	}
	r, _, e := syscall.RawSyscall(unix.SYS_WRITEV, uintptr(fd), uintptr(unsafe.Pointer(&vecs[0])), uintptr(len(vecs)))
	return rawResult(r, e)
}

// rawResult is the count and error of a raw call, as x/sys/unix's
// wrappers give them (a failed call counts -1).
func rawResult(r uintptr, e syscall.Errno) (int, error) {
	if e != 0 {
		return int(r), e
	}
	return int(r), nil
}
