package stream

import "github.com/rekv/rekv/actors/command"

// Commands returns the stream commands' registration table.
func Commands() []*command.Spec {
	first := command.KeySpec{First: 1, Last: 1, Step: 1}
	return []*command.Spec{
		{Name: "xadd", Arity: -5, Flags: command.WriteFast | command.OwnEvents, Keys: first, Parse: parseXAdd},
		{Name: "xlen", Arity: 2, Flags: command.ReadFast, Keys: first, Parse: parseXLen},
		{Name: "xrange", Arity: -4, Flags: command.ReadOnly, Keys: first, Parse: rangeParser(false)},
		{Name: "xrevrange", Arity: -4, Flags: command.ReadOnly, Keys: first, Parse: rangeParser(true)},
		{Name: "xdel", Arity: -3, Flags: command.WriteFast, Keys: first, Event: "xdel", Parse: parseXDel},
		{Name: "xread", Arity: -4, Flags: command.ReadOnly | command.Blocking, KeysFunc: streamsKeys, Parse: parseXRead},
		{Name: "xtrim", Arity: -4, Flags: command.Write, Keys: first, Event: "xtrim", Parse: parseXTrim},
	}
}
