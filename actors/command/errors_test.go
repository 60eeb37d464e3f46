package command

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"
	"testing"

	"github.com/rekv/rekv/resp"
)

// TestReplyStorageFaults: a write the file system refused answers MISCONF
// naming the fault, wherever the errno sits in the error's chain; other
// unknown errors stay "ERR internal error".
func TestReplyStorageFaults(t *testing.T) {
	misconf := func(cause string) string {
		return "-MISCONF rekv cannot persist writes to its storage (" + cause + "): write commands are refused until it " +
			"recovers, reads go on. Please check the server log for details.\r\n"
	}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("badger: persist version mark: %w", &fs.PathError{Op: "write", Path: "x", Err: syscall.EROFS}), misconf("read-only file system")},
		{errors.Join(fmt.Errorf("sync: %w", syscall.ENOSPC), errors.New("other")), misconf("no space left on device")},
		{fmt.Errorf("open: %w", &fs.PathError{Op: "open", Path: "MANIFEST", Err: syscall.ENOENT}), misconf("no such file or directory")},
		{errors.New("something else"), "-ERR internal error\r\n"},
	} {
		w := resp.NewWriter(2)
		Reply(w, tc.err, "set", nil)
		if got := string(w.Bytes()); got != tc.want {
			t.Errorf("Reply(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}
