package topk

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// TOPK.QUERY key item [item ...]: 1 for each item in the top k, else 0.
// TOPK.COUNT key item [item ...]: each item's estimated count.
type query struct {
	key   []byte
	items [][]byte
	count bool
}

func parseQuery(count bool) func([][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) {
		return query{key: args[1], items: args[2:], count: count}, nil
	}
}

func (q query) Run(c *command.Ctx) error {
	t, err := open(c, q.key)
	if err != nil {
		return err
	}
	out := make([]int64, len(q.items))
	for i, it := range q.items {
		if q.count {
			n, err := t.Count(it)
			if err != nil {
				return err
			}
			out[i] = int64(n)
		} else if t.Query(it) {
			out[i] = 1
		}
	}
	c.Ints(out, true)
	return nil
}

// TOPK.LIST key [WITHCOUNT]: the top k items, heaviest first (with
// their counts).
type list struct {
	key       []byte
	withCount bool
}

func parseList(args [][]byte) (command.Runner, error) {
	switch {
	case len(args) == 2:
		return list{key: args[1]}, nil
	case len(args) == 3 && command.Is(args[2], "withcount"):
		return list{key: args[1], withCount: true}, nil
	case len(args) == 3:
		return nil, rerr.Errorf("TopK: wrong argument, expecting WITHCOUNT")
	}
	return nil, rerr.ErrArity("topk.list")
}

func (l list) Run(c *command.Ctx) error {
	t, err := open(c, l.key)
	if err != nil {
		return err
	}
	items := t.List()
	if l.withCount {
		c.W.Array(2 * len(items))
	} else {
		c.W.Array(len(items))
	}
	for _, e := range items {
		c.W.Bulk(e.Item)
		if l.withCount {
			c.W.Int(int64(e.Count))
		}
	}
	return nil
}

// TOPK.INFO key: k, width, depth and decay (a map in RESP3).
type info struct{ key []byte }

func parseInfo(args [][]byte) (command.Runner, error) { return info{args[1]}, nil }

func (in info) Run(c *command.Ctx) error {
	t, err := open(c, in.key)
	if err != nil {
		return err
	}
	c.W.Map(4)
	c.W.Simple("k")
	c.W.Int(int64(t.H.K))
	c.W.Simple("width")
	c.W.Int(int64(t.H.Width))
	c.W.Simple("depth")
	c.W.Int(int64(t.H.Depth))
	c.W.Simple("decay")
	c.W.Double(t.H.Decay)
	return nil
}
