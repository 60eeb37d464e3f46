package json

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rjson"
)

// JSON.ARRINDEX key path value [start [stop]]: the index of value's
// first occurrence in each array path matches, between start and stop
// (exclusive; 0 or none: the end; negative: from the end), -1 if
// absent. Numbers match only numbers of their kind: 3 is not 3.0.
type arrIndex struct {
	key         []byte
	path        path
	value       []byte
	start, stop int64
}

func parseArrIndex(args [][]byte) (command.Runner, error) {
	if len(args) > 6 {
		return nil, rerr.ErrArity("json.arrindex")
	}
	a := arrIndex{key: args[1], path: newPath(args[2]), value: args[3]}
	for i, p := range []*int64{&a.start, &a.stop} {
		if len(args) > 4+i {
			n, err := command.Int(args[4+i])
			if err != nil {
				return nil, errNotInteger
			}
			*p = n
		}
	}
	return a, nil
}

// index finds v in arr as RedisJSON does; ok false when arr is not an
// array.
func (a arrIndex) index(arr, v *rjson.Value) (int64, bool) {
	if arr.Kind != rjson.Array {
		return 0, false
	}
	n := len(arr.A)
	if n == 0 {
		return -1, true
	}
	start := startIndex(a.start, n)
	end := n
	switch {
	case a.stop < 0:
		end = int(max(0, int64(n)+a.stop))
	case a.stop > 0:
		end = int(min(a.stop, int64(n)))
	}
	for i := start; i < end; i++ {
		if rjson.Equal(arr.A[i], v) {
			return int64(i), true
		}
	}
	return -1, true
}

func (a arrIndex) Run(c *command.Ctx) error {
	d, err := open(c, a.key)
	if err != nil {
		return err
	}
	v, err := parseValue(a.value)
	if err != nil {
		return err
	}
	if d == nil {
		return errPath(a.path.text)
	}
	q, err := a.path.query()
	if err != nil {
		return err
	}
	vals := q.Values(d.Root)
	if a.path.legacy {
		if len(vals) == 0 {
			return errPath(a.path.text)
		}
		i, ok := a.index(vals[0], v)
		if !ok {
			return errExpected("array", vals[0].TypeName())
		}
		c.W.Int(i)
		return nil
	}
	idx, ok := make([]int64, len(vals)), make([]bool, len(vals))
	for k, arr := range vals {
		idx[k], ok[k] = a.index(arr, v)
	}
	nullable(c, idx, ok, c.W.Int)
	return nil
}
