package tx

import "github.com/rekv/rekv/actors/command"

// Commands returns the transaction commands' registration table.
func Commands() []*command.Spec {
	tx := command.Conn | command.Transaction | command.Fast
	return []*command.Spec{
		{Name: "multi", Arity: 1, Flags: tx | command.NoScript | command.AllowBusy, Parse: parseMulti},
		{Name: "exec", Arity: 1, Flags: tx | command.Write | command.NoScript | command.Serial | command.RunsQueued, Parse: parseExec},
		{Name: "discard", Arity: 1, Flags: tx | command.NoScript | command.AllowBusy, Parse: parseDiscard},
		{Name: "watch", Arity: -2, Flags: tx | command.NoScript, Keys: command.KeySpec{First: 1, Last: -1, Step: 1}, Parse: parseWatch},
		{Name: "unwatch", Arity: 1, Flags: tx | command.NoScript | command.AllowBusy, Parse: parseUnwatch},
	}
}
