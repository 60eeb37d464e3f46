package bloom

import (
	"errors"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rbloom"
)

// Commands returns the Bloom filter commands' registration table.
func Commands() []*command.Spec {
	key := command.KeySpec{First: 1, Last: 1, Step: 1}
	return []*command.Spec{
		{Name: "bf.reserve", Arity: -4, Flags: command.WriteFast, Keys: key, Event: "bf.reserve", Parse: parseReserve},
		{Name: "bf.add", Arity: 3, Flags: command.Write, Keys: key, Event: "bf.add", Parse: parseAdd},
		{Name: "bf.madd", Arity: -3, Flags: command.Write, Keys: key, Event: "bf.madd", Parse: parseMAdd},
		{Name: "bf.insert", Arity: -4, Flags: command.Write, Keys: key, Event: "bf.insert", Parse: parseInsert},
		{Name: "bf.exists", Arity: 3, Flags: command.ReadFast, Keys: key, Parse: parseExists},
		{Name: "bf.mexists", Arity: -3, Flags: command.ReadFast, Keys: key, Parse: parseMExists},
		{Name: "bf.card", Arity: 2, Flags: command.ReadFast, Keys: key, Parse: parseCard},
		{Name: "bf.info", Arity: -2, Flags: command.ReadFast, Keys: key, Parse: parseInfo},
		{Name: "bf.debug", Arity: 2, Flags: command.ReadFast, Keys: key, Parse: parseDebug},
		{Name: "bf.scandump", Arity: 3, Flags: command.ReadFast, Keys: key, Parse: parseScanDump},
		{Name: "bf.loadchunk", Arity: 4, Flags: command.Write, Keys: key, Event: "bf.loadchunk", Parse: parseLoadChunk},
	}
}

// RedisBloom's defaults for a filter BF.ADD, BF.MADD or BF.INSERT
// creates.
const (
	defaultError     = 0.01
	defaultCapacity  = 100
	defaultExpansion = 2
	maxCapacity      = 1 << 30
)

// RedisBloom's errors.
var (
	errNotFound  = rerr.Errorf("ERR not found")
	errExists    = rerr.Errorf("ERR item exists")
	errFull      = rerr.Errorf("ERR non scaling filter is full")
	errCannot    = rerr.Errorf("ERR problem inserting into filter")
	errBadCreate = rerr.Errorf("ERR could not create filter")
)

// addError maps an rbloom Add error to its reply.
func addError(err error) error {
	switch {
	case errors.Is(err, rbloom.ErrFull):
		return errFull
	case errors.Is(err, rbloom.ErrCannotGrow):
		return errCannot
	}
	return err
}
