package scripting

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// FCALL function numkeys [key ...] [arg ...] and FCALL_RO: runs a library
// function with the keys and args as its two table arguments, in the
// command's transaction like EVAL.
type fcall struct {
	s        *Scripts
	name     string
	keys     [][]byte
	argv     [][]byte
	readOnly bool
	args     [][]byte // the command line, for FUNCTION STATS
}

func (s *Scripts) fcallParser(readOnly bool) func([][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) {
		if _, err := command.Int(args[2]); err != nil {
			return nil, rerr.Errorf("ERR Bad number of keys provided") // Redis's FCALL text (EVAL's differs)
		}
		keys, argv, err := splitKeys(args)
		if err != nil {
			return nil, err
		}
		return &fcall{s: s, name: string(args[1]), keys: keys, argv: argv, readOnly: readOnly, args: args}, nil
	}
}

func (x *fcall) Run(c *command.Ctx) error {
	libs, gen, err := x.s.fns.sync(c.Tx, c.Namespace())
	if err != nil {
		return err
	}
	var fn *function
	for _, lib := range libs {
		if fn = lib.find(x.name); fn != nil {
			break
		}
	}
	if fn == nil {
		return rerr.Errorf("ERR Function not found")
	}
	if x.readOnly && fn.sf&flagNoWrites == 0 {
		return rerr.Errorf("ERR Can not execute a script with write flag using *_ro command.")
	}
	v := x.s.state()
	defer x.s.release(v)
	closure, err := v.bind(libs, gen, fn.name) // as registered: FCALL's name is case-insensitive
	if err != nil || closure == nil {
		return rerr.Errorf("ERR Function not found")
	}
	r := &run{scripts: x.s, c: c, name: fn.name, source: "user_function", readOnly: x.readOnly || fn.sf&flagNoWrites != 0, resp: 2, flags: fn.sf, declared: true,
		client: &scriptClient{db: c.DB}, command: x.args}
	return v.runFunction(r, closure, stringsTable(v.L, x.keys), stringsTable(v.L, x.argv))
}
