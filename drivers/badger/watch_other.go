//go:build !linux

package badger

// dirWatch is Linux's inotify watch (watch_linux.go); elsewhere only the
// health check's stat of MANIFEST notices a removed directory.
type dirWatch struct{}

func newDirWatch(string) (*dirWatch, error) { return nil, nil }

func (w *dirWatch) removed() string { return "" }

func (w *dirWatch) close() {}
