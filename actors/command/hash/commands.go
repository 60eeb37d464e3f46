package hash

import (
	"github.com/rekv/rekv/actors/command"
)

// Commands returns the hash commands' registration table.
func Commands() []*command.Spec {
	first := command.KeySpec{First: 1, Last: 1, Step: 1}
	return []*command.Spec{
		{Name: "hset", Arity: -4, Flags: command.WriteFast, Keys: first, Event: "hset", Parse: parseHSet},
		{Name: "hmset", Arity: -4, Flags: command.WriteFast, Keys: first, Event: "hset", Parse: parseHMSet},
		{Name: "hsetnx", Arity: 4, Flags: command.WriteFast, Keys: first, Event: "hset", Parse: parseHSetNX},
		{Name: "hget", Arity: 3, Flags: command.ReadFast, Keys: first, Parse: parseHGet},
		{Name: "hmget", Arity: -3, Flags: command.ReadFast, Keys: first, Parse: parseHMGet},
		{Name: "hdel", Arity: -3, Flags: command.WriteFast, Keys: first, Event: "hdel", Parse: parseHDel},
		{Name: "hlen", Arity: 2, Flags: command.ReadFast, Keys: first, Parse: parseHLen},
		{Name: "hexists", Arity: 3, Flags: command.ReadFast, Keys: first, Parse: parseHExists},
		{Name: "hgetall", Arity: 2, Flags: command.ReadOnly, Keys: first, Parse: parseHGetAll},
		{Name: "hkeys", Arity: 2, Flags: command.ReadOnly, Keys: first, Parse: parseHKeys},
		{Name: "hvals", Arity: 2, Flags: command.ReadOnly, Keys: first, Parse: parseHVals},
		{Name: "hstrlen", Arity: 3, Flags: command.ReadFast, Keys: first, Parse: parseHStrlen},
		{Name: "hincrby", Arity: 4, Flags: command.WriteFast, Keys: first, Event: "hincrby", Parse: parseHIncrBy},
		{Name: "hincrbyfloat", Arity: 4, Flags: command.WriteFast, Keys: first, Event: "hincrbyfloat", Parse: parseHIncrByFloat},
		{Name: "hrandfield", Arity: -2, Flags: command.ReadOnly, Keys: first, Parse: parseHRandField},
		{Name: "hscan", Arity: -3, Flags: command.ReadOnly, Keys: first, Parse: parseHScan},
		// Hash-field expiration (Redis 7.4, and 8.0's HGETDEL, HGETEX,
		// HSETEX); they note their own events.
		{Name: "hexpire", Arity: -6, Flags: command.WriteFast | command.OwnEvents, Keys: first, Parse: hexpireParser("hexpire", true, true)},
		{Name: "hpexpire", Arity: -6, Flags: command.WriteFast | command.OwnEvents, Keys: first, Parse: hexpireParser("hpexpire", false, true)},
		{Name: "hexpireat", Arity: -6, Flags: command.WriteFast | command.OwnEvents, Keys: first, Parse: hexpireParser("hexpireat", true, false)},
		{Name: "hpexpireat", Arity: -6, Flags: command.WriteFast | command.OwnEvents, Keys: first, Parse: hexpireParser("hpexpireat", false, false)},
		{Name: "httl", Arity: -5, Flags: command.ReadFast, Keys: first, Parse: httlParser(true, false)},
		{Name: "hpttl", Arity: -5, Flags: command.ReadFast, Keys: first, Parse: httlParser(false, false)},
		{Name: "hexpiretime", Arity: -5, Flags: command.ReadFast, Keys: first, Parse: httlParser(true, true)},
		{Name: "hpexpiretime", Arity: -5, Flags: command.ReadFast, Keys: first, Parse: httlParser(false, true)},
		{Name: "hpersist", Arity: -5, Flags: command.WriteFast | command.OwnEvents, Keys: first, Parse: parseHPersist},
		{Name: "hgetdel", Arity: -5, Flags: command.WriteFast | command.OwnEvents, Keys: first, Parse: parseHGetDel},
		{Name: "hgetex", Arity: -5, Flags: command.WriteFast | command.OwnEvents, Keys: first, Parse: parseHGetEx},
		{Name: "hsetex", Arity: -6, Flags: command.WriteFast | command.OwnEvents, Keys: first, Parse: parseHSetEx},
	}
}
