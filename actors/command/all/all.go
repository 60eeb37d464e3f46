package all

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/command/bloom"
	"github.com/rekv/rekv/actors/command/cms"
	"github.com/rekv/rekv/actors/command/cuckoo"
	"github.com/rekv/rekv/actors/command/geo"
	"github.com/rekv/rekv/actors/command/hash"
	"github.com/rekv/rekv/actors/command/hll"
	jsoncmd "github.com/rekv/rekv/actors/command/json"
	"github.com/rekv/rekv/actors/command/keys"
	"github.com/rekv/rekv/actors/command/list"
	"github.com/rekv/rekv/actors/command/pubsub"
	"github.com/rekv/rekv/actors/command/scripting"
	"github.com/rekv/rekv/actors/command/server"
	"github.com/rekv/rekv/actors/command/set"
	"github.com/rekv/rekv/actors/command/stream"
	"github.com/rekv/rekv/actors/command/strings"
	"github.com/rekv/rekv/actors/command/tdigest"
	"github.com/rekv/rekv/actors/command/topk"
	"github.com/rekv/rekv/actors/command/tx"
	"github.com/rekv/rekv/actors/command/zset"
)

// Registry returns the table of every command rekv serves, with scripts
// served from s (nil: the table only, for tests and tools that run no
// script), and the extra tables given (an embedder's commands).
func Registry(s *scripting.Scripts, extra ...[]*command.Spec) *command.Registry {
	return command.NewRegistry(append([][]*command.Spec{
		command.WithClass(command.NotifyString, strings.Commands()),
		command.WithClass(command.NotifyGeneric, keys.Commands()),
		server.Commands(),
		command.WithClass(command.NotifyHash, hash.Commands()),
		command.WithClass(command.NotifyList, list.Commands()),
		command.WithClass(command.NotifySet, set.Commands()),
		command.WithClass(command.NotifyZSet, zset.Commands()),
		command.WithClass(command.NotifyStream, stream.Commands()),
		command.WithClass(command.NotifyString, hll.Commands()),
		command.WithClass(command.NotifyZSet, geo.Commands()),
		command.WithClass(command.NotifyModule, bloom.Commands()),
		command.WithClass(command.NotifyModule, cms.Commands()),
		command.WithClass(command.NotifyModule, cuckoo.Commands()),
		command.WithClass(command.NotifyModule, topk.Commands()),
		command.WithClass(command.NotifyModule, tdigest.Commands()),
		command.WithClass(command.NotifyModule, jsoncmd.Commands()),
		pubsub.Commands(),
		tx.Commands(),
		scripting.Commands(s)}, extra...)...)
}
