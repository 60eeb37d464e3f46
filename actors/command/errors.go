package command

import (
	"errors"
	"log/slog"

	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/net/resp"
)

// Reply writes err to w as a RESP error. Errors that are not *rerr.Error are
// internal: they are logged with the command name and reported as
// "ERR internal error", never leaked.
func Reply(w *resp.Writer, err error, cmd string, log *slog.Logger) {
	var e *rerr.Error
	var pe *resp.ProtocolError
	switch {
	case errors.As(err, &e):
		w.Error(e.Msg)
	case errors.As(err, &pe):
		w.Error("ERR " + pe.Error())
	default:
		if log != nil {
			log.Error("command failed", "cmd", cmd, "err", err)
		}
		w.Error(rerr.ErrInternal.Msg)
	}
}
