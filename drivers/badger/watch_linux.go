package badger

import (
	"errors"
	"fmt"
	"sync"
	"syscall"
	"unsafe"
)

// dirWatch watches the data directory for its removal with inotify: the
// directory itself deleted or moved, or MANIFEST or KEYREGISTRY (files
// Badger never removes) deleted or moved away. A store whose files were
// removed keeps accepting writes into unlinked files, lost at the next
// start; so every commit with writes, and every Check, first reads the
// events the kernel has queued (one non-blocking read, about a
// microsecond): a commit that starts after the removal's event was queued
// fails, and no write is acknowledged after it.
type dirWatch struct {
	mu   sync.Mutex
	fd   int // -1 once closed
	buf  [4096]byte
	gone string // what was removed; "" while nothing was
}

// newDirWatch starts watching dir.
func newDirWatch(dir string) (*dirWatch, error) {
	fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC | syscall.IN_NONBLOCK)
	if err != nil {
		return nil, fmt.Errorf("badger: inotify: %w", err)
	}
	const mask = syscall.IN_DELETE_SELF | syscall.IN_MOVE_SELF | syscall.IN_DELETE | syscall.IN_MOVED_FROM
	if _, err := syscall.InotifyAddWatch(fd, dir, mask); err != nil {
		_ = syscall.Close(fd)
		return nil, fmt.Errorf("badger: inotify watch %q: %w", dir, err)
	}
	return &dirWatch{fd: fd}, nil
}

// removed reads the queued events and returns what was removed, "" when
// nothing was.
func (w *dirWatch) removed() string {
	if w == nil {
		return ""
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for w.gone == "" && w.fd >= 0 {
		n, err := syscall.Read(w.fd, w.buf[:])
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if n <= 0 || err != nil { // EAGAIN: nothing queued
			break
		}
		w.gone = removal(w.buf[:n])
	}
	return w.gone
}

// close ends the watch.
func (w *dirWatch) close() {
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.fd >= 0 {
		_ = syscall.Close(w.fd)
		w.fd = -1
	}
}

// removal returns what the inotify events in b say was removed ("" when
// nothing that matters).
func removal(b []byte) string {
	for len(b) >= syscall.SizeofInotifyEvent {
		ev := (*syscall.InotifyEvent)(unsafe.Pointer(&b[0]))
		size := syscall.SizeofInotifyEvent + int(ev.Len)
		if size > len(b) {
			return ""
		}
		name := string(b[syscall.SizeofInotifyEvent:size])
		for len(name) > 0 && name[len(name)-1] == 0 {
			name = name[:len(name)-1]
		}
		b = b[size:]
		switch {
		case ev.Mask&syscall.IN_DELETE_SELF != 0:
			return "the data directory was removed"
		case ev.Mask&syscall.IN_MOVE_SELF != 0:
			return "the data directory was moved"
		case ev.Mask&(syscall.IN_DELETE|syscall.IN_MOVED_FROM) != 0 && (name == "MANIFEST" || name == "KEYREGISTRY"):
			return "the data directory's " + name + " was removed"
		}
	}
	return ""
}
