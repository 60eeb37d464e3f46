package hll

import "github.com/rekv/rekv/actors/command"

// Commands returns the HyperLogLog commands' registration table.
func Commands() []*command.Spec {
	return []*command.Spec{
		{Name: "pfadd", Arity: -2, Flags: command.WriteFast, Keys: command.KeySpec{First: 1, Last: 1, Step: 1}, Event: "pfadd", Parse: parsePFAdd},
		{Name: "pfcount", Arity: -2, Flags: command.Write, Keys: command.KeySpec{First: 1, Last: -1, Step: 1}, Parse: parsePFCount},
		{Name: "pfselftest", Arity: 1, Flags: command.Conn, Parse: parsePFSelfTest},
		{Name: "pfdebug", Arity: 3, Flags: command.Write, Keys: command.KeySpec{First: 2, Last: 2, Step: 1}, Parse: parsePFDebug},
		{Name: "pfmerge", Arity: -2, Flags: command.Write, Keys: command.KeySpec{First: 1, Last: -1, Step: 1}, Event: "pfadd", Parse: parsePFMerge},
	}
}
