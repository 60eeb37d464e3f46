package set

import (
	"github.com/rekv/rekv/actors/command"
)

// Commands returns the set commands' registration table.
func Commands() []*command.Spec {
	first := command.KeySpec{First: 1, Last: 1, Step: 1}
	two := command.KeySpec{First: 1, Last: 2, Step: 1}
	all := command.KeySpec{First: 1, Last: -1, Step: 1}
	return []*command.Spec{
		{Name: "sadd", Arity: -3, Flags: command.WriteFast, Keys: first, Event: "sadd", Parse: parseSAdd},
		{Name: "srem", Arity: -3, Flags: command.WriteFast, Keys: first, Event: "srem", Parse: parseSRem},
		{Name: "scard", Arity: 2, Flags: command.ReadFast, Keys: first, Parse: parseSCard},
		{Name: "sismember", Arity: 3, Flags: command.ReadFast, Keys: first, Parse: parseSIsMember},
		{Name: "smismember", Arity: -3, Flags: command.ReadFast, Keys: first, Parse: parseSMIsMember},
		{Name: "smembers", Arity: 2, Flags: command.ReadOnly, Keys: first, Parse: parseSMembers},
		{Name: "spop", Arity: -2, Flags: command.WriteFast, Keys: first, Event: "spop", Parse: parseSPop},
		{Name: "srandmember", Arity: -2, Flags: command.ReadOnly, Keys: first, Parse: parseSRandMember},
		{Name: "smove", Arity: 4, Flags: command.WriteFast, Keys: two, KeyEvent: smoveEvent, Parse: parseSMove},
		{Name: "sinter", Arity: -2, Flags: command.ReadOnly, Keys: all, Parse: algebraParser(inter, false)},
		{Name: "sunion", Arity: -2, Flags: command.ReadOnly, Keys: all, Parse: algebraParser(union, false)},
		{Name: "sdiff", Arity: -2, Flags: command.ReadOnly, Keys: all, Parse: algebraParser(diff, false)},
		{Name: "sinterstore", Arity: -3, Flags: command.Write, Keys: all, Event: "sinterstore", Parse: algebraParser(inter, true)},
		{Name: "sunionstore", Arity: -3, Flags: command.Write, Keys: all, Event: "sunionstore", Parse: algebraParser(union, true)},
		{Name: "sdiffstore", Arity: -3, Flags: command.Write, Keys: all, Event: "sdiffstore", Parse: algebraParser(diff, true)},
		{Name: "sintercard", Arity: -3, Flags: command.ReadOnly, KeysFunc: command.NumKeys(1, false), Parse: parseSInterCard},
		{Name: "sscan", Arity: -3, Flags: command.ReadOnly, Keys: first, Parse: parseSScan},
	}
}

// writeSet writes members as a RESP3 set (RESP2 array).
func writeSet(c *command.Ctx, ms [][]byte) {
	c.W.Set(len(ms))
	for _, m := range ms {
		c.W.Bulk(m)
	}
}
