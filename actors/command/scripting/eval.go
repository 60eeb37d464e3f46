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
		keys, argv, err := splitKeys(args)
		if err != nil {
			return nil, err
		}
		e := &eval{s: s, keys: keys, argv: argv, readOnly: readOnly}
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

// splitKeys reads "<script|function> numkeys key... arg..." (args[2] is
// numkeys) with Redis's errors.
func splitKeys(args [][]byte) (keys, argv [][]byte, err error) {
	n, err := command.Int(args[2])
	if err != nil {
		return nil, nil, err
	}
	switch {
	case n < 0:
		return nil, nil, rerr.Errorf("ERR Number of keys can't be negative")
	case n > int64(len(args)-3):
		return nil, nil, rerr.Errorf("ERR Number of keys can't be greater than number of args")
	}
	return args[3 : 3+n], args[3+n:], nil
}
