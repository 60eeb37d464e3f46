package command

import (
	"errors"
	"log/slog"
	"syscall"

	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/guard"
	"github.com/rekv/rekv/resp"
)

// storageFault returns the errno in err's chain that says the storage, not
// the command, is at fault (a read-only, full, failing or removed file
// system), or nil.
func storageFault(err error) error {
	for _, e := range [...]syscall.Errno{syscall.EROFS, syscall.ENOSPC, syscall.EDQUOT, syscall.EIO, syscall.ENOENT, syscall.ESTALE} {
		if errors.Is(err, e) {
			return e
		}
	}
	return nil
}

// Reply writes err to w as a RESP error. Storage refusals have their own
// replies (too large; TRYAGAIN after lost conflict retries or when the
// store could not be reached; MISCONF when the file system refused the
// write); other errors that are not
// *rerr.Error are internal: they are logged with the command name and
// reported as "ERR internal error", never leaked.
func Reply(w *resp.Writer, err error, cmd string, log *slog.Logger) {
	var e *rerr.Error
	var pe *resp.ProtocolError
	switch {
	case errors.As(err, &e):
		w.Error(e.Msg)
	case errors.As(err, &pe):
		w.Error("ERR " + pe.Error())
	case errors.Is(err, guard.ErrPanic):
		w.Error(rerr.ErrInternal.Msg) // logged with its stack where it was recovered
	case errors.Is(err, store.ErrTooBig):
		w.Error(rerr.ErrStorageTooBig.Msg)
	case errors.Is(err, store.ErrConflict):
		w.Error(rerr.ErrTryAgain.Msg)
	case errors.Is(err, store.ErrUndetermined):
		// The health check, told of it, logs the outage once.
		w.Error(rerr.ErrUndetermined.Msg)
	case errors.Is(err, store.ErrUnavailable):
		w.Error(rerr.ErrUnavailable.Msg)
	case errors.Is(err, store.ErrFenced):
		w.Error(rerr.ErrClusterLease.Msg)
	case storageFault(err) != nil:
		// The file system refused the write: the command was not applied,
		// and the health check, told of it, marks the store failed and
		// logs why once (every command failing would flood the log).
		w.Error(rerr.Misconf(storageFault(err).Error()).Msg)
	default:
		if log != nil {
			log.Error("command failed", "cmd", cmd, "err", err)
		}
		w.Error(rerr.ErrInternal.Msg)
	}
}
