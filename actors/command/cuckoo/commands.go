package cuckoo

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rcuckoo"
)

// Commands returns the Cuckoo filter commands' registration table.
func Commands() []*command.Spec {
	key := command.KeySpec{First: 1, Last: 1, Step: 1}
	return []*command.Spec{
		{Name: "cf.reserve", Arity: -3, Flags: command.WriteFast, Keys: key, Event: "cf.reserve", Parse: parseReserve},
		{Name: "cf.add", Arity: 3, Flags: command.WriteFast, Keys: key, Event: "cf.add", Parse: parseAdd(false)},
		{Name: "cf.addnx", Arity: 3, Flags: command.WriteFast, Keys: key, Event: "cf.addnx", Parse: parseAdd(true)},
		{Name: "cf.insert", Arity: -4, Flags: command.Write, Keys: key, Event: "cf.insert", Parse: parseInsert(false)},
		{Name: "cf.insertnx", Arity: -4, Flags: command.Write, Keys: key, Event: "cf.insertnx", Parse: parseInsert(true)},
		{Name: "cf.exists", Arity: 3, Flags: command.ReadFast, Keys: key, Parse: parseCheck(false, false)},
		{Name: "cf.mexists", Arity: -3, Flags: command.ReadFast, Keys: key, Parse: parseCheck(true, false)},
		{Name: "cf.count", Arity: 3, Flags: command.ReadFast, Keys: key, Parse: parseCheck(false, true)},
		{Name: "cf.del", Arity: 3, Flags: command.WriteFast, Keys: key, Event: "cf.del", Parse: parseDel},
		{Name: "cf.compact", Arity: 2, Flags: command.Write, Keys: key, Event: "cf.compact", Parse: parseCompact},
		{Name: "cf.info", Arity: 2, Flags: command.ReadFast, Keys: key, Parse: parseInfo},
		{Name: "cf.debug", Arity: 2, Flags: command.ReadFast, Keys: key, Parse: parseDebug},
		{Name: "cf.scandump", Arity: 3, Flags: command.ReadOnly, Keys: key, Parse: parseScanDump},
		{Name: "cf.loadchunk", Arity: 4, Flags: command.Write, Keys: key, Event: "cf.loadchunk", Parse: parseLoadChunk},
	}
}

// RedisBloom's defaults.
const (
	defaultCapacity   = 1024
	defaultBucketSize = 2
	defaultIterations = 20
	defaultExpansion  = 1
)

var (
	errNotFound = rerr.Errorf("ERR not found")
	errExists   = rerr.Errorf("ERR item exists")
	errTooSmall = rerr.Errorf("ERR Capacity must be at least (BucketSize * 2)")
)

// open returns the filter at key, or ERR not found.
func open(c *command.Ctx, key []byte) (*rcuckoo.Filter, error) {
	f, err := rcuckoo.Open(c.Tx, key)
	if err == nil && f == nil {
		err = errNotFound
	}
	return f, err
}
