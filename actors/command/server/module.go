package server

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// MODULE LIST / LOAD / LOADEX / UNLOAD / HELP: rekv loads no modules.
// LIST names the module of Redis 8's built-in types rekv serves, as Redis
// 8 lists it (clients probe for it): "ReJSON", the JSON commands, and
// "bf", the probabilistic types' commands.
// LOAD, LOADEX and UNLOAD answer what Redis answers with its default
// enable-module-command (no), which rekv keeps.
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

// builtinModules are the modules MODULE LIST names: each module's name
// and the version Redis 8.0 reports for it.
var builtinModules = []struct {
	name string
	ver  int64
}{{"ReJSON", 80000}, {"bf", 80000}}

func (moduleList) Run(c *command.Ctx) error {
	c.W.Array(len(builtinModules))
	for _, m := range builtinModules {
		c.W.Map(4)
		c.W.BulkString("name")
		c.W.BulkString(m.name)
		c.W.BulkString("ver")
		c.W.Int(m.ver)
		c.W.BulkString("path")
		c.W.BulkString("")
		c.W.BulkString("args")
		c.W.Array(0)
	}
	return nil
}
