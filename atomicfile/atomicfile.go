package atomicfile

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
)

// Write replaces file with what fill writes (buffered), with mode perm.
// On any error the old file is left as it was.
func Write(file string, perm os.FileMode, fill func(w io.Writer) error) error {
	dir := filepath.Dir(file)
	tmp, err := os.CreateTemp(dir, filepath.Base(file)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename: nothing left to remove
	bw := bufio.NewWriterSize(tmp, 1<<20)
	err = fill(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), perm)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), file)
	}
	if err == nil {
		if d, derr := os.Open(dir); derr == nil {
			err = d.Sync()
			d.Close()
		}
	}
	return err
}
