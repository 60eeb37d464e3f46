package cms

import "github.com/rekv/rekv/actors/command"

// CMS.QUERY key item [item ...]: each item's estimated count.
type query struct {
	key   []byte
	items [][]byte
}

func parseQuery(args [][]byte) (command.Runner, error) { return query{args[1], args[2:]}, nil }

func (q query) Run(c *command.Ctx) error {
	s, err := open(c, q.key)
	if err != nil {
		return err
	}
	out := make([]int64, len(q.items))
	for i, item := range q.items {
		est, err := s.Query(item)
		if err != nil {
			return err
		}
		out[i] = int64(est)
	}
	c.Ints(out, true)
	return nil
}
