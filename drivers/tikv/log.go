package tikv

import (
	"context"
	"log/slog"

	plog "github.com/pingcap/log"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// routeLogs sends client-go's logs (pingcap/log's global zap logger) to l,
// warnings and above only: client-go is chatty at info level. The global
// is client-go's own; the last Open wins.
func routeLogs(l *slog.Logger) {
	level := zap.NewAtomicLevelAt(zapcore.WarnLevel)
	core := slogCore{l: l, level: level}
	plog.ReplaceGlobals(zap.New(core), &plog.ZapProperties{Core: core, Level: level})
}

// slogCore is a zapcore.Core writing to a slog.Logger.
type slogCore struct {
	l      *slog.Logger
	level  zap.AtomicLevel
	fields []zapcore.Field
}

func (c slogCore) Enabled(l zapcore.Level) bool { return c.level.Enabled(l) }

func (c slogCore) With(fields []zapcore.Field) zapcore.Core {
	c.fields = append(append([]zapcore.Field(nil), c.fields...), fields...)
	return c
}

func (c slogCore) Check(e zapcore.Entry, ce *zapcore.CheckedEntry) *zapcore.CheckedEntry {
	if c.Enabled(e.Level) {
		return ce.AddCore(e, c)
	}
	return ce
}

func (c slogCore) Write(e zapcore.Entry, fields []zapcore.Field) error {
	enc := zapcore.NewMapObjectEncoder()
	for _, f := range c.fields {
		f.AddTo(enc)
	}
	for _, f := range fields {
		f.AddTo(enc)
	}
	attrs := make([]any, 0, 2*len(enc.Fields))
	for k, v := range enc.Fields {
		attrs = append(attrs, k, v)
	}
	level := slog.LevelWarn
	if e.Level >= zapcore.ErrorLevel {
		level = slog.LevelError
	}
	c.l.Log(context.Background(), level, e.Message, attrs...)
	return nil
}

func (c slogCore) Sync() error { return nil }
