package json

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rjson"
)

// JSON.ARRAPPEND key path value [value ...]: appends the values to the
// arrays path matches; replies with the new lengths.
type arrAppend struct {
	key    []byte
	path   path
	values [][]byte
}

func parseArrAppend(args [][]byte) (command.Runner, error) {
	if len(args) < 4 {
		return nil, rerr.ErrArity("json.arrappend")
	}
	return arrAppend{key: args[1], path: newPath(args[2]), values: args[3:]}, nil
}

func (a arrAppend) Run(c *command.Ctx) error {
	vals, err := parseValues(a.values)
	if err != nil {
		return err
	}
	return arrayEdit(c, a.key, a.path, false, func(arr *rjson.Value) (int64, error) {
		arr.A = append(arr.A, cloneAll(vals)...)
		return int64(len(arr.A)), nil
	})
}
