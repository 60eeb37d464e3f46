package topk

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rtopk"
)

// Commands returns the Top-K commands' registration table.
func Commands() []*command.Spec {
	key := command.KeySpec{First: 1, Last: 1, Step: 1}
	return []*command.Spec{
		{Name: "topk.reserve", Arity: -3, Flags: command.WriteFast, Keys: key, Event: "topk.reserve", Parse: parseReserve},
		{Name: "topk.add", Arity: -3, Flags: command.Write, Keys: key, Event: "topk.add", Parse: parseAdd},
		{Name: "topk.incrby", Arity: -4, Flags: command.Write, Keys: key, Event: "topk.incrby", Parse: parseIncrBy},
		{Name: "topk.query", Arity: -3, Flags: command.ReadOnly, Keys: key, Parse: parseQuery(false)},
		{Name: "topk.count", Arity: -3, Flags: command.ReadOnly, Keys: key, Parse: parseQuery(true)},
		{Name: "topk.list", Arity: -2, Flags: command.ReadOnly, Keys: key, Parse: parseList},
		{Name: "topk.info", Arity: 2, Flags: command.ReadFast, Keys: key, Parse: parseInfo},
	}
}

var errNoKey = rerr.Errorf("TopK: key does not exist")

// open returns the Top-K at key, or RedisBloom's error for a missing key.
func open(c *command.Ctx, key []byte) (*rtopk.TopK, error) {
	t, err := rtopk.Open(c.Tx, key)
	if err == nil && t == nil {
		err = errNoKey
	}
	return t, err
}
