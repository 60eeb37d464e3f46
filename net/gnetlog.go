package net

import (
	"fmt"
	"log/slog"
)

// gnetLog routes gnet's own log lines through the server's slog logger.
type gnetLog struct{ log *slog.Logger }

func (g gnetLog) Debugf(format string, args ...any) { g.log.Debug(fmt.Sprintf(format, args...)) }
func (g gnetLog) Infof(format string, args ...any)  { g.log.Info(fmt.Sprintf(format, args...)) }
func (g gnetLog) Warnf(format string, args ...any)  { g.log.Warn(fmt.Sprintf(format, args...)) }
func (g gnetLog) Errorf(format string, args ...any) { g.log.Error(fmt.Sprintf(format, args...)) }

// Fatalf logs at error level: gnet calls it before giving up, and the
// server reports the failure through Start/Stop rather than exiting.
func (g gnetLog) Fatalf(format string, args ...any) { g.log.Error(fmt.Sprintf(format, args...)) }
