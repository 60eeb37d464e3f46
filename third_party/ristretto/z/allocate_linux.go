/*
 * rekv's patch (see ../README.rekv.md): files Badger writes through memory maps
 * are allocated when created or grown, not left sparse.
 */

package z

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// allocate makes fd at least size bytes long with its blocks allocated
// from off on (fallocate), so that a write through a memory map of the
// file can never hit a page the file system cannot back: on a full file
// system the allocation fails here with ENOSPC, an error Badger returns,
// instead of a later write killing the process with SIGBUS. A file system
// without fallocate gets the sparse truncate of upstream ristretto.
func allocate(fd *os.File, off, size int64) error {
	if size <= off {
		return fd.Truncate(size)
	}
	for {
		err := unix.Fallocate(int(fd.Fd()), 0, off, size-off)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, unix.EINTR):
			continue
		case errors.Is(err, unix.EOPNOTSUPP), errors.Is(err, unix.ENOSYS):
			return fd.Truncate(size)
		}
		return &os.PathError{Op: "fallocate", Path: fd.Name(), Err: err}
	}
}
