package command

import (
	"errors"
	"log/slog"

	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/net/resp"
)

// Reply writes err to w as a RESP error. Storage refusals have their own
// replies (too large; TRYAGAIN after lost conflict retries); other errors
// that are not *rerr.Error are internal: they are logged with the command
// name and reported as "ERR internal error", never leaked.
func Reply(w *resp.Writer, err error, cmd string, log *slog.Logger) {
	var e *rerr.Error
	var pe *resp.ProtocolError
	switch {
	case errors.As(err, &e):
		w.Error(e.Msg)
	case errors.As(err, &pe):
		w.Error("ERR " + pe.Error())
	case errors.Is(err, store.ErrTooBig):
		w.Error(rerr.ErrStorageTooBig.Msg)
	case errors.Is(err, store.ErrConflict):
		w.Error(rerr.ErrTryAgain.Msg)
	default:
		if log != nil {
			log.Error("command failed", "cmd", cmd, "err", err)
		}
		w.Error(rerr.ErrInternal.Msg)
	}
}
