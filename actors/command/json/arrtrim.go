package json

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rjson"
)

// JSON.ARRTRIM key path start stop: keeps elements start..stop
// (inclusive; negative from the end) of the arrays path matches;
// replies with the new lengths.
type arrTrim struct {
	key         []byte
	path        path
	start, stop int64
}

func parseArrTrim(args [][]byte) (command.Runner, error) {
	start, err := command.Int(args[3])
	if err != nil {
		return nil, errNotInteger
	}
	stop, err := command.Int(args[4])
	if err != nil {
		return nil, errNotInteger
	}
	return arrTrim{key: args[1], path: newPath(args[2]), start: start, stop: stop}, nil
}

func (t arrTrim) Run(c *command.Ctx) error {
	return arrayEdit(c, t.key, t.path, true, func(arr *rjson.Value) (int64, error) {
		n := len(arr.A)
		if n == 0 {
			return 0, nil
		}
		stop := startIndex(t.stop, n)
		start := stop + 1
		if t.start < 0 || t.start < int64(n) {
			start = startIndex(t.start, n)
		}
		if start > stop {
			arr.A = nil
		} else {
			arr.A = append([]*rjson.Value(nil), arr.A[start:stop+1]...)
		}
		return int64(len(arr.A)), nil
	})
}
