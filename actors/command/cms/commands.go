package cms

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rcms"
)

// Commands returns the count-min sketch commands' registration table.
func Commands() []*command.Spec {
	key := command.KeySpec{First: 1, Last: 1, Step: 1}
	return []*command.Spec{
		{Name: "cms.initbydim", Arity: 4, Flags: command.WriteFast, Keys: key, Event: "cms.initbydim", Parse: parseInitByDim},
		{Name: "cms.initbyprob", Arity: 4, Flags: command.WriteFast, Keys: key, Event: "cms.initbyprob", Parse: parseInitByProb},
		{Name: "cms.incrby", Arity: -4, Flags: command.WriteFast, Keys: key, Event: "cms.incrby", Parse: parseIncrBy},
		{Name: "cms.query", Arity: -3, Flags: command.ReadFast, Keys: key, Parse: parseQuery},
		{Name: "cms.merge", Arity: -4, Flags: command.Write, KeysFunc: command.NumKeys(2, true), Event: "cms.merge", Parse: parseMerge},
		{Name: "cms.info", Arity: 2, Flags: command.ReadFast, Keys: key, Parse: parseInfo},
	}
}

var (
	errNoKey  = rerr.Errorf("CMS: key does not exist")
	errExists = rerr.Errorf("CMS: key already exists")
)

// open returns the sketch at key, or RedisBloom's error for a missing
// key.
func open(c *command.Ctx, key []byte) (*rcms.Sketch, error) {
	s, err := rcms.Open(c.Tx, key)
	if err == nil && s == nil {
		err = errNoKey
	}
	return s, err
}
