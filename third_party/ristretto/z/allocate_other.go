//go:build !linux

/*
 * rekv's patch (see ../README.rekv.md): elsewhere files stay sparse, as upstream.
 */

package z

import "os"

// allocate sets fd's size (a sparse truncate, as upstream ristretto).
func allocate(fd *os.File, off, size int64) error { return fd.Truncate(size) }
