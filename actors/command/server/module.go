package server

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// MODULE LIST / LOAD / LOADEX / UNLOAD / HELP: rekv loads no modules.
// LIST answers an empty list; LOAD, LOADEX and UNLOAD answer what Redis
// answers with its default enable-module-command (no), which rekv keeps.
func moduleCommands() *command.Spec {
	refuse := func(name string, arity int) *command.Spec {
		return &command.Spec{Name: name, Arity: arity, Flags: command.Conn | command.NoScript,
			Parse: func([][]byte) (command.Runner, error) { return nil, errModuleCommand }}
	}
	return &command.Spec{Name: "module", Arity: -2, Subcommands: []*command.Spec{
		{Name: "list", Arity: 2, Flags: command.Conn | command.NoScript, Parse: func([][]byte) (command.Runner, error) { return moduleList{}, nil }},
		refuse("load", -3), refuse("loadex", -3), refuse("unload", 3),
		command.HelpSpec("MODULE <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
			"LIST", "    Return a list of loaded modules.",
			"LOAD <path> [<arg> ...]", "    Load a module library from <path>, passing to it any optional arguments.",
			"LOADEX <path> [[CONFIG NAME VALUE] [CONFIG NAME VALUE]] [ARGS ...]",
			"    Load a module library from <path>, while passing it module configurations and optional arguments.",
			"UNLOAD <name>", "    Unload a module.",
			"HELP", "    Prints this help."),
	}}
}

var errModuleCommand = rerr.Errorf(`ERR MODULE command not allowed. If the enable-module-command option is set to "local", ` +
	`you can run it from a local connection, otherwise you need to set this option in the configuration file, and then restart the server.`)

type moduleList struct{}

func (moduleList) Run(c *command.Ctx) error {
	c.W.Array(0)
	return nil
}
