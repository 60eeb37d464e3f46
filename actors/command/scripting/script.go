package scripting

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// SCRIPT LOAD script: compiles and caches it, replies its SHA1.
type load struct {
	s    *Scripts
	body []byte
}

func (s *Scripts) parseLoad(args [][]byte) (command.Runner, error) { return load{s, args[2]}, nil }

func (x load) Run(c *command.Ctx) error {
	sc, err := x.s.load(x.body)
	if err != nil {
		return err
	}
	c.W.BulkString(sc.sha)
	return nil
}

// SCRIPT EXISTS sha1 [sha1 ...]: 1 or 0 for each.
type exists struct {
	s    *Scripts
	shas [][]byte
}

func (s *Scripts) parseExists(args [][]byte) (command.Runner, error) {
	return exists{s, args[2:]}, nil
}

func (x exists) Run(c *command.Ctx) error {
	c.W.Array(len(x.shas))
	for _, sha := range x.shas {
		if x.s.get(sha) != nil {
			c.W.Int(1)
		} else {
			c.W.Int(0)
		}
	}
	return nil
}

// SCRIPT FLUSH [ASYNC | SYNC]: forgets every cached script.
type flush struct{ s *Scripts }

func (s *Scripts) parseFlush(args [][]byte) (command.Runner, error) {
	if len(args) > 3 || len(args) == 3 && !command.Is(args[2], "sync") && !command.Is(args[2], "async") {
		return nil, rerr.Errorf("ERR SCRIPT FLUSH only support SYNC|ASYNC option")
	}
	return flush{s}, nil
}

func (x flush) Run(c *command.Ctx) error {
	x.s.flush()
	c.W.OK()
	return nil
}

// SCRIPT KILL and FUNCTION KILL: stop the longest-running script if it
// has not written (it runs on the connection's loop, not behind the
// script's shards).
type kill struct {
	s        *Scripts
	function bool // FUNCTION KILL
}

func (s *Scripts) parseKill(args [][]byte) (command.Runner, error) {
	return kill{s: s, function: command.Is(args[0], "function")}, nil
}

func (x kill) Run(c *command.Ctx) error {
	if err := x.s.kill(x.function); err != nil {
		return err
	}
	c.W.OK()
	return nil
}

// SCRIPT HELP

// SCRIPT DEBUG YES|SYNC|NO: rekv has no Lua debugger; NO (the state it
// is always in) is accepted.
type scriptDebug struct{}

func parseScriptDebug(args [][]byte) (command.Runner, error) {
	switch {
	case command.Is(args[2], "no"):
		return scriptDebug{}, nil
	case command.Is(args[2], "yes"), command.Is(args[2], "sync"):
		return nil, rerr.Errorf("ERR rekv has no Lua debugger: SCRIPT DEBUG YES and SYNC are not supported")
	}
	return nil, rerr.Errorf("ERR Use SCRIPT DEBUG YES/SYNC/NO")
}

func (scriptDebug) Run(c *command.Ctx) error {
	c.W.OK()
	return nil
}
