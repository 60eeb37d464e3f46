package set

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rset"
)

// SMISMEMBER key member [member ...]
type smisMember struct {
	key     []byte
	members [][]byte
}

func parseSMIsMember(args [][]byte) (command.Runner, error) {
	return smisMember{args[1], args[2:]}, nil
}

func (s smisMember) Run(c *command.Ctx) error {
	set, err := rset.Open(c.Tx, s.key, false)
	if err != nil {
		return err
	}
	out := make([]int64, len(s.members))
	for i, m := range s.members {
		ok, err := rset.IsMember(set, m)
		if err != nil {
			return err
		}
		if ok {
			out[i] = 1
		}
	}
	c.W.Array(len(out))
	for _, v := range out {
		c.W.Int(v)
	}
	return nil
}
