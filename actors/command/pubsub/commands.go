package pubsub

import "github.com/rekv/rekv/actors/command"

// Commands returns the Pub/Sub commands' registration table.
func Commands() []*command.Spec {
	conn := command.Conn
	sub := command.Conn | command.PubSubContext | command.Pushes
	return []*command.Spec{
		{Name: "subscribe", Arity: -2, Flags: sub | command.NoScript, Parse: subParser(false, true)},
		{Name: "unsubscribe", Arity: -1, Flags: sub | command.NoScript, Parse: subParser(false, false)},
		{Name: "psubscribe", Arity: -2, Flags: sub | command.NoScript, Parse: subParser(true, true)},
		{Name: "punsubscribe", Arity: -1, Flags: sub | command.NoScript, Parse: subParser(true, false)},
		{Name: "publish", Arity: 3, Flags: conn | command.Fast | command.MayReplicate, Parse: parsePublish},
		{Name: "ssubscribe", Arity: -2, Flags: sub | command.NoScript, Parse: shardSubParser(true)},
		{Name: "sunsubscribe", Arity: -1, Flags: sub | command.NoScript, Parse: shardSubParser(false)},
		{Name: "spublish", Arity: 3, Flags: conn | command.Fast | command.MayReplicate, Parse: parseSPublish},
		{Name: "pubsub", Arity: -2, Subcommands: []*command.Spec{
			{Name: "channels", Arity: -2, Flags: conn, Parse: parseChannels},
			{Name: "numsub", Arity: -2, Flags: conn, Parse: parseNumsub},
			{Name: "numpat", Arity: 2, Flags: conn, Parse: parseNumpat},
			{Name: "shardchannels", Arity: -2, Flags: conn, Parse: parseShardChannels},
			{Name: "shardnumsub", Arity: -2, Flags: conn, Parse: parseShardNumsub},
			command.HelpSpec("PUBSUB <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
				"CHANNELS [<pattern>]", "    The channels with at least one subscriber (matching the pattern).",
				"NUMPAT", "    The number of patterns subscribed to.",
				"NUMSUB [<channel> ...]", "    The subscribers of each channel.",
				"SHARDCHANNELS [<pattern>]", "    The shard channels with at least one subscriber (matching the pattern).",
				"SHARDNUMSUB [<shardchannel> ...]", "    The subscribers of each shard channel.",
				"HELP", "    Prints this help."),
		}},
	}
}
