package json

import (
	"math"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rjson"
)

// JSON.ARRPOP key [FORMAT f] [path [index]]: removes and returns the
// element at index (default: the last; negative: from the end; out of
// range: the nearest end) of the arrays path matches, as JSON text (in
// RESP3 with FORMAT EXPAND1/EXPAND, as RESP3 values); nil for an empty
// array or a non-array. An index that is not a number means -1, as in
// RedisJSON.
type arrPop struct {
	key    []byte
	path   path
	index  int64
	format string // "STRINGS", "EXPAND1" or "EXPAND"
	given  bool   // FORMAT was given
}

func parseArrPop(args [][]byte) (command.Runner, error) {
	a := arrPop{key: args[1], path: rootPath, index: math.MaxInt64, format: "STRINGS"}
	rest := args[2:]
	if len(rest) >= 2 && command.Is(rest[0], "format") {
		switch f := string(rest[1]); f {
		case "STRINGS", "EXPAND1", "EXPAND":
			a.format, a.given = f, true
		default:
			return nil, rerr.Errorf("ERR wrong reply format")
		}
		rest = rest[2:]
	}
	if len(rest) > 0 {
		a.path, a.index = newPath(rest[0]), -1
		if len(rest) > 1 {
			if n, err := command.Int(rest[1]); err == nil {
				a.index = n
			}
		}
	}
	return a, nil
}

func (a arrPop) Run(c *command.Ctx) error {
	if a.given && c.W.Proto() != 3 {
		return rerr.Errorf("ERR FORMAT argument is not supported on RESP2")
	}
	if a.path.legacy && a.format != "STRINGS" {
		return rerr.Errorf("Legacy paths are supported only with FORMAT STRINGS")
	}
	d, err := mustOpen(c, a.key)
	if err != nil {
		return err
	}
	q, err := a.path.query()
	if err != nil {
		return err
	}
	ms, pos, all := arrays(d, q, true)
	if a.path.legacy && len(ms) == 0 {
		return errPathOr(a.path.text, "not an array")
	}
	popped := make([]*rjson.Value, len(ms))
	changed := false
	for k, m := range ms {
		if n := len(m.V.A); n > 0 {
			i := startIndex(a.index, n)
			popped[k] = m.V.A[i]
			m.V.A = append(m.V.A[:i], m.V.A[i+1:]...)
			changed = true
		}
	}
	if changed {
		if err := d.Save(); err != nil {
			return err
		}
	}
	write := func(v *rjson.Value) {
		switch {
		case v == nil:
			c.W.Null()
		case a.format == "STRINGS":
			writeJSON(c, v)
		default:
			writeRESP3(c, v, a.format == "EXPAND", rjson.Format{})
		}
	}
	if a.path.legacy {
		write(popped[len(popped)-1])
		return nil
	}
	arrayReply(c, all, pos, func(k int) { write(popped[k]) })
	return nil
}
