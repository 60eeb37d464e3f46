package json

import (
	"slices"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rjson"
)

// JSON.ARRINSERT key path index value [value ...]: inserts the values
// before index (negative: from the end) in the arrays path matches;
// replies with the new lengths. An index outside an array changes
// nothing: "ERR index out of bounds".
type arrInsert struct {
	key    []byte
	path   path
	index  int64
	values [][]byte
}

func parseArrInsert(args [][]byte) (command.Runner, error) {
	i, err := command.Int(args[3])
	if err != nil {
		return nil, errNotInteger
	}
	return arrInsert{key: args[1], path: newPath(args[2]), index: i, values: args[4:]}, nil
}

func (a arrInsert) Run(c *command.Ctx) error {
	vals, err := parseValues(a.values)
	if err != nil {
		return err
	}
	return arrayEdit(c, a.key, a.path, true, func(arr *rjson.Value) (int64, error) {
		n := int64(len(arr.A))
		at := a.index
		if at < 0 {
			at += n
		}
		if at < 0 || at > n {
			return 0, rerr.Errorf("ERR index out of bounds")
		}
		arr.A = slices.Insert(arr.A, int(at), cloneAll(vals)...)
		return int64(len(arr.A)), nil
	})
}
