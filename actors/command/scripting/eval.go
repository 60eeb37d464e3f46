package scripting

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// EVAL script numkeys [key ...] [arg ...], EVALSHA sha1 numkeys ...,
// EVAL_RO and EVALSHA_RO (read-only: write commands are refused). The
// script runs in the command's transaction, holding its keys' shards.
type eval struct {
	s        *Scripts
	body     []byte // EVAL
	sha      []byte // EVALSHA
	keys     [][]byte
	argv     [][]byte
	readOnly bool
}

func (s *Scripts) evalParser(bySHA, readOnly bool) func([][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) {
		n, err := command.Int(args[2])
		if err != nil {
			return nil, err
		}
		switch {
		case n < 0:
			return nil, rerr.Errorf("ERR Number of keys can't be negative")
		case n > int64(len(args)-3):
			return nil, rerr.Errorf("ERR Number of keys can't be greater than number of args")
		}
		e := &eval{s: s, keys: args[3 : 3+n], argv: args[3+n:], readOnly: readOnly}
		if bySHA {
			e.sha = args[1]
		} else {
			e.body = args[1]
		}
		return e, nil
	}
}

func (e *eval) Run(c *command.Ctx) error {
	var sc *script
	if e.sha != nil {
		if sc = e.s.get(e.sha); sc == nil {
			return rerr.Errorf("NOSCRIPT No matching script. Please use EVAL.")
		}
	} else {
		var err error
		if sc, err = e.s.load(e.body); err != nil {
			return err
		}
	}
	return e.s.exec(c, sc, e.keys, e.argv, e.readOnly)
}
