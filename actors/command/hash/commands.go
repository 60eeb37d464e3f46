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
	}
}
