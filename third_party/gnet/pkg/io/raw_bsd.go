//go:build darwin || dragonfly || freebsd || netbsd || openbsd

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

import "golang.org/x/sys/unix"

// RawRead, RawWrite and RawWritev are Linux's raw calls (raw_linux.go);
// elsewhere they are the usual ones.

// RawRead reads from a non-blocking fd into p.
func RawRead(fd int, p []byte) (int, error) { return unix.Read(fd, p) }

// RawWrite writes p to a non-blocking fd.
func RawWrite(fd int, p []byte) (int, error) { return unix.Write(fd, p) }

// RawWritev writes the buffers of iov, in order, to a non-blocking fd.
func RawWritev(fd int, iov [][]byte) (int, error) { return Writev(fd, iov) }
