package json

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rjson"
)

// startIndex is RedisJSON's index of an element from a requested one:
// from the end when negative (stopping at 0), at most the last.
func startIndex(i int64, n int) int {
	if i < 0 {
		return int(max(0, int64(n)+i))
	}
	return int(min(i, int64(n)-1))
}

// arrays returns the matches of p in d that are arrays, in document
// order or (sorted) in mutation order (see rjson.SortForMutation), and
// each one's position in the reply; all is the number of matches.
func arrays(d *rjson.Doc, q *rjson.Query, sorted bool) (ms []rjson.Match, pos []int, all int) {
	found := q.Eval(d.Root)
	order := rjson.SortForMutation(found)
	if !sorted {
		for i := range order {
			order[i] = i
		}
	}
	for _, i := range order {
		if found[i].V.Kind == rjson.Array {
			ms, pos = append(ms, found[i]), append(pos, i)
		}
	}
	return ms, pos, len(found)
}

// arrayReply writes an array reply of all entries, nil where a match
// was not an array.
func arrayReply(c *command.Ctx, all int, pos []int, write func(k int)) {
	at := make([]int, all)
	for i := range at {
		at[i] = -1
	}
	for k, p := range pos {
		at[p] = k
	}
	c.W.Array(all)
	for _, k := range at {
		if k < 0 {
			c.W.Null()
		} else {
			write(k)
		}
	}
}

// parseValues parses JSON arguments.
func parseValues(args [][]byte) ([]*rjson.Value, error) {
	out := make([]*rjson.Value, len(args))
	for i, a := range args {
		v, err := parseValue(a)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// cloneAll deep-copies values (one copy per array they go into).
func cloneAll(vs []*rjson.Value) []*rjson.Value {
	out := make([]*rjson.Value, len(vs))
	for i, v := range vs {
		out[i] = v.Clone()
	}
	return out
}

// arrayEdit runs edit on each array a path matches (in document or
// mutation order) and replies as the
// array commands do: JSONPath, one integer per match (nil for a
// non-array); legacy, the last edit's (an error when no array matched).
func arrayEdit(c *command.Ctx, key []byte, p path, sorted bool, edit func(a *rjson.Value) (int64, error)) error {
	d, err := mustOpen(c, key)
	if err != nil {
		return err
	}
	q, err := p.query()
	if err != nil {
		return err
	}
	ms, pos, all := arrays(d, q, sorted)
	if p.legacy && len(ms) == 0 {
		return errPathOr(p.text, "not an array")
	}
	results := make([]int64, len(ms))
	for k, m := range ms {
		if results[k], err = edit(m.V); err != nil {
			return err
		}
	}
	if len(ms) > 0 {
		if err := d.Save(); err != nil {
			return err
		}
	}
	if p.legacy {
		c.W.Int(results[len(results)-1])
		return nil
	}
	arrayReply(c, all, pos, func(k int) { c.W.Int(results[k]) })
	return nil
}
