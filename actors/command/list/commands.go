package list

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// Commands returns the list commands' registration table.
func Commands() []*command.Spec {
	first := command.KeySpec{First: 1, Last: 1, Step: 1}
	two := command.KeySpec{First: 1, Last: 2, Step: 1}
	blockKeys := command.KeySpec{First: 1, Last: -2, Step: 1}
	block := command.Write | command.Blocking
	return []*command.Spec{
		{Name: "lpush", Arity: -3, Flags: command.WriteFast | command.OwnEvents, Keys: first, Parse: pushParser(true, false)},
		{Name: "rpush", Arity: -3, Flags: command.WriteFast | command.OwnEvents, Keys: first, Parse: pushParser(false, false)},
		{Name: "lpushx", Arity: -3, Flags: command.WriteFast | command.OwnEvents, Keys: first, Parse: pushParser(true, true)},
		{Name: "rpushx", Arity: -3, Flags: command.WriteFast | command.OwnEvents, Keys: first, Parse: pushParser(false, true)},
		{Name: "lpop", Arity: -2, Flags: command.WriteFast | command.OwnEvents, Keys: first, Parse: popParser("lpop", true)},
		{Name: "rpop", Arity: -2, Flags: command.WriteFast | command.OwnEvents, Keys: first, Parse: popParser("rpop", false)},
		{Name: "llen", Arity: 2, Flags: command.ReadFast, Keys: first, Parse: parseLLen},
		{Name: "lindex", Arity: 3, Flags: command.ReadOnly, Keys: first, Parse: parseLIndex},
		{Name: "lset", Arity: 4, Flags: command.Write, Keys: first, Event: "lset", Parse: parseLSet},
		{Name: "lrange", Arity: 4, Flags: command.ReadOnly, Keys: first, Parse: parseLRange},
		{Name: "ltrim", Arity: 4, Flags: command.Write, Keys: first, Event: "ltrim", Parse: parseLTrim},
		{Name: "linsert", Arity: 5, Flags: command.Write, Keys: first, Event: "linsert", Parse: parseLInsert},
		{Name: "lrem", Arity: 4, Flags: command.Write, Keys: first, Event: "lrem", Parse: parseLRem},
		{Name: "lpos", Arity: -3, Flags: command.ReadOnly, Keys: first, Parse: parseLPos},
		{Name: "lmove", Arity: 5, Flags: command.Write | command.OwnEvents, Keys: two, Parse: parseLMove},
		{Name: "rpoplpush", Arity: 3, Flags: command.Write | command.OwnEvents, Keys: two, Parse: parseRPopLPush},
		{Name: "lmpop", Arity: -4, Flags: command.Write | command.OwnEvents, KeysFunc: command.NumKeys(1, false), Parse: parseLMPop},
		{Name: "blpop", Arity: -3, Flags: block | command.OwnEvents | command.NoScript, Keys: blockKeys, Parse: bpopParser(true)},
		{Name: "brpop", Arity: -3, Flags: block | command.OwnEvents | command.NoScript, Keys: blockKeys, Parse: bpopParser(false)},
		{Name: "blmove", Arity: 6, Flags: block | command.OwnEvents | command.NoScript, Keys: two, Parse: parseBLMove},
		{Name: "brpoplpush", Arity: 4, Flags: block | command.OwnEvents | command.NoScript, Keys: two, Parse: parseBRPopLPush},
		{Name: "blmpop", Arity: -5, Flags: block | command.OwnEvents, KeysFunc: command.NumKeys(2, false), Parse: parseBLMPop},
	}
}

// side parses LEFT or RIGHT.
func side(arg []byte) (left bool, err error) {
	switch {
	case command.Is(arg, "left"):
		return true, nil
	case command.Is(arg, "right"):
		return false, nil
	}
	return false, rerr.ErrSyntax
}
