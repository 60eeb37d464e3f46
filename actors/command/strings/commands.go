package strings

import "github.com/rekv/rekv/actors/command"

// Commands returns the string commands' registration table.
func Commands() []*command.Spec {
	first := command.KeySpec{First: 1, Last: 1, Step: 1}
	all := command.KeySpec{First: 1, Last: -1, Step: 1}
	pairs := command.KeySpec{First: 1, Last: -1, Step: 2}
	return []*command.Spec{
		{Name: "get", Arity: 2, Flags: command.ReadFast, Keys: first, Parse: parseGet},
		{Name: "set", Arity: -3, Flags: command.Write, Keys: first, Event: "set", EventTTL: true, Parse: parseSet},
		{Name: "setnx", Arity: 3, Flags: command.WriteFast, Keys: first, Event: "set", Parse: parseSetNX},
		{Name: "setex", Arity: 4, Flags: command.Write, Keys: first, Event: "set", EventTTL: true, Parse: parseSetEX},
		{Name: "psetex", Arity: 4, Flags: command.Write, Keys: first, Event: "set", EventTTL: true, Parse: parsePSetEX},
		{Name: "getset", Arity: 3, Flags: command.WriteFast, Keys: first, Event: "set", Parse: parseGetSet},
		{Name: "getdel", Arity: 2, Flags: command.WriteFast, Keys: first, Event: "del", Parse: parseGetDel},
		{Name: "getex", Arity: -2, Flags: command.WriteFast, Keys: first, Event: "expire", Parse: parseGetEx},
		{Name: "mget", Arity: -2, Flags: command.ReadFast, Keys: all, Parse: parseMGet},
		{Name: "mset", Arity: -3, Flags: command.Write, Keys: pairs, Event: "set", Parse: parseMSet},
		{Name: "msetnx", Arity: -3, Flags: command.Write, Keys: pairs, Event: "set", Parse: parseMSetNX},
		{Name: "incr", Arity: 2, Flags: command.WriteFast, Keys: first, Event: "incrby", Parse: parseIncr},
		{Name: "decr", Arity: 2, Flags: command.WriteFast, Keys: first, Event: "incrby", Parse: parseDecr},
		{Name: "incrby", Arity: 3, Flags: command.WriteFast, Keys: first, Event: "incrby", Parse: parseIncrBy},
		{Name: "decrby", Arity: 3, Flags: command.WriteFast, Keys: first, Event: "incrby", Parse: parseDecrBy},
		{Name: "incrbyfloat", Arity: 3, Flags: command.WriteFast, Keys: first, Event: "incrbyfloat", Parse: parseIncrByFloat},
		{Name: "append", Arity: 3, Flags: command.WriteFast, Keys: first, Event: "append", Parse: parseAppend},
		{Name: "strlen", Arity: 2, Flags: command.ReadFast, Keys: first, Parse: parseStrlen},
		{Name: "setrange", Arity: 4, Flags: command.Write, Keys: first, Event: "setrange", Parse: parseSetRange},
		{Name: "getrange", Arity: 4, Flags: command.ReadOnly, Keys: first, Parse: parseGetRange},
		{Name: "substr", Arity: 4, Flags: command.ReadOnly, Keys: first, Parse: parseGetRange},
		{Name: "setbit", Arity: 4, Flags: command.Write, Keys: first, Event: "setbit", Parse: parseSetBit},
		{Name: "getbit", Arity: 3, Flags: command.ReadFast, Keys: first, Parse: parseGetBit},
		{Name: "bitcount", Arity: -2, Flags: command.ReadOnly, Keys: first, Parse: parseBitCount},
		{Name: "bitpos", Arity: -3, Flags: command.ReadOnly, Keys: first, Parse: parseBitPos},
		{Name: "bitop", Arity: -4, Flags: command.Write, Keys: command.KeySpec{First: 2, Last: -1, Step: 1},
			KeyEvent: bitOpEvent, Parse: parseBitOp},
		{Name: "bitfield", Arity: -2, Flags: command.Write | command.OwnEvents, Keys: first, Parse: parseBitField},
		{Name: "bitfield_ro", Arity: -2, Flags: command.ReadFast, Keys: first, Parse: parseBitFieldRO},
		{Name: "lcs", Arity: -3, Flags: command.ReadOnly, Keys: command.KeySpec{First: 1, Last: 2, Step: 1}, Parse: parseLCS},
	}
}
