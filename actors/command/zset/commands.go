package zset

import "github.com/rekv/rekv/actors/command"

// Commands returns the sorted-set commands' registration table.
func Commands() []*command.Spec {
	first := command.KeySpec{First: 1, Last: 1, Step: 1}
	two := command.KeySpec{First: 1, Last: 2, Step: 1}
	return []*command.Spec{
		{Name: "zadd", Arity: -4, Flags: command.WriteFast, Keys: first, Event: "zadd", Parse: parseZAdd},
		{Name: "zincrby", Arity: 4, Flags: command.WriteFast, Keys: first, Event: "zincr", Parse: parseZIncrBy},
		{Name: "zscore", Arity: 3, Flags: command.ReadFast, Keys: first, Parse: parseZScore},
		{Name: "zmscore", Arity: -3, Flags: command.ReadFast, Keys: first, Parse: parseZMScore},
		{Name: "zcard", Arity: 2, Flags: command.ReadFast, Keys: first, Parse: parseZCard},
		{Name: "zcount", Arity: 4, Flags: command.ReadFast, Keys: first, Parse: parseZCount},
		{Name: "zlexcount", Arity: 4, Flags: command.ReadFast, Keys: first, Parse: parseZLexCount},
		{Name: "zrank", Arity: -3, Flags: command.ReadFast, Keys: first, Parse: rankParser("zrank", false)},
		{Name: "zrevrank", Arity: -3, Flags: command.ReadFast, Keys: first, Parse: rankParser("zrevrank", true)},
		{Name: "zrange", Arity: -4, Flags: command.ReadOnly, Keys: first, Parse: parseZRange},
		{Name: "zrangestore", Arity: -5, Flags: command.Write, Keys: two, Event: "zrangestore", Parse: parseZRangeStore},
		{Name: "zrevrange", Arity: -4, Flags: command.ReadOnly, Keys: first, Parse: parseZRevRange},
		{Name: "zrangebyscore", Arity: -4, Flags: command.ReadOnly, Keys: first, Parse: byScoreParser(false)},
		{Name: "zrevrangebyscore", Arity: -4, Flags: command.ReadOnly, Keys: first, Parse: byScoreParser(true)},
		{Name: "zrangebylex", Arity: -4, Flags: command.ReadOnly, Keys: first, Parse: byLexParser(false)},
		{Name: "zrevrangebylex", Arity: -4, Flags: command.ReadOnly, Keys: first, Parse: byLexParser(true)},
		{Name: "zrem", Arity: -3, Flags: command.WriteFast, Keys: first, Event: "zrem", Parse: parseZRem},
		{Name: "zremrangebyrank", Arity: 4, Flags: command.Write, Keys: first, Event: "zremrangebyrank", Parse: remRangeParser(byRankKind)},
		{Name: "zremrangebyscore", Arity: 4, Flags: command.Write, Keys: first, Event: "zremrangebyscore", Parse: remRangeParser(byScoreKind)},
		{Name: "zremrangebylex", Arity: 4, Flags: command.Write, Keys: first, Event: "zremrangebylex", Parse: remRangeParser(byLexKind)},
		{Name: "zpopmin", Arity: -2, Flags: command.WriteFast, Keys: first, Event: "zpopmin", Parse: popParser(false)},
		{Name: "zpopmax", Arity: -2, Flags: command.WriteFast, Keys: first, Event: "zpopmax", Parse: popParser(true)},
		{Name: "zmpop", Arity: -4, Flags: command.Write | command.OwnEvents, KeysFunc: command.NumKeys(1, false), Parse: parseZMPop},
		{Name: "bzpopmin", Arity: -3, Flags: command.WriteFast | command.Blocking | command.OwnEvents | command.NoScript,
			Keys: command.KeySpec{First: 1, Last: -2, Step: 1}, Parse: bzpopParser(false)},
		{Name: "bzpopmax", Arity: -3, Flags: command.WriteFast | command.Blocking | command.OwnEvents | command.NoScript,
			Keys: command.KeySpec{First: 1, Last: -2, Step: 1}, Parse: bzpopParser(true)},
		{Name: "bzmpop", Arity: -5, Flags: command.Write | command.Blocking | command.OwnEvents, KeysFunc: command.NumKeys(2, false), Parse: parseBZMPop},
		{Name: "zrandmember", Arity: -2, Flags: command.ReadOnly, Keys: first, Parse: parseZRandMember},
		{Name: "zunion", Arity: -3, Flags: command.ReadOnly, KeysFunc: command.NumKeys(1, false), Parse: setOpParser("zunion", opUnion, false)},
		{Name: "zinter", Arity: -3, Flags: command.ReadOnly, KeysFunc: command.NumKeys(1, false), Parse: setOpParser("zinter", opInter, false)},
		{Name: "zdiff", Arity: -3, Flags: command.ReadOnly, KeysFunc: command.NumKeys(1, false), Parse: setOpParser("zdiff", opDiff, false)},
		{Name: "zunionstore", Arity: -4, Flags: command.Write, KeysFunc: command.NumKeys(2, true), Event: "zunionstore", Parse: setOpParser("zunionstore", opUnion, true)},
		{Name: "zinterstore", Arity: -4, Flags: command.Write, KeysFunc: command.NumKeys(2, true), Event: "zinterstore", Parse: setOpParser("zinterstore", opInter, true)},
		{Name: "zdiffstore", Arity: -4, Flags: command.Write, KeysFunc: command.NumKeys(2, true), Event: "zdiffstore", Parse: setOpParser("zdiffstore", opDiff, true)},
		{Name: "zintercard", Arity: -3, Flags: command.ReadOnly, KeysFunc: command.NumKeys(1, false), Parse: parseZInterCard},
		{Name: "zscan", Arity: -3, Flags: command.ReadOnly, Keys: first, Parse: parseZScan},
	}
}
