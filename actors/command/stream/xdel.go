package stream

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rstream"
	"github.com/rekv/rekv/codec"
)

// XDEL key id [id ...]: how many of the entries existed and were deleted.
type xdel struct {
	key []byte
	ids []codec.StreamID
}

func parseXDel(args [][]byte) (command.Runner, error) {
	x := xdel{key: args[1]}
	for _, a := range args[2:] {
		id, err := parseID(a, 0, false)
		if err != nil {
			return nil, err
		}
		x.ids = append(x.ids, id)
	}
	return x, nil
}

func (x xdel) Run(c *command.Ctx) error {
	s, err := rstream.Open(c.Tx, x.key, false)
	if err != nil {
		return err
	}
	var n int64
	if s != nil {
		if n, err = s.Delete(x.ids); err != nil {
			return err
		}
	}
	c.W.Int(n)
	return nil
}
