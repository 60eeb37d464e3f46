package zset

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rzset"
)

type rangeKind int

const (
	byRankKind rangeKind = iota
	byScoreKind
	byLexKind
)

// rangeSpec is a parsed range of ZRANGE and its relatives.
type rangeSpec struct {
	kind          rangeKind
	rev           bool
	start, stop   int64
	smin, smax    rzset.ScoreBound
	lmin, lmax    rzset.LexBound
	offset, count int64
	withScores    bool
}

// parseRange parses "min max [options]" at args[at:], as Redis's
// zrangeGenericCommand does. A fixed kind or direction (ZRANGEBYSCORE,
// ZREVRANGE...) makes the corresponding option a syntax error.
func parseRange(args [][]byte, at int, kind rangeKind, fixedKind, rev, fixedRev, store bool) (rangeSpec, error) {
	rs := rangeSpec{kind: kind, rev: rev, count: -1}
	kindSet, revSet := fixedKind, fixedRev
	for j := at + 2; j < len(args); j++ {
		left := len(args) - j - 1
		switch a := args[j]; {
		case !store && command.Is(a, "withscores"):
			rs.withScores = true
		case command.Is(a, "limit") && left >= 2:
			var err error
			if rs.offset, err = command.Int(args[j+1]); err != nil {
				return rs, err
			}
			if rs.count, err = command.Int(args[j+2]); err != nil {
				return rs, err
			}
			j += 2
		case !revSet && command.Is(a, "rev"):
			rs.rev, revSet = true, true
		case !kindSet && command.Is(a, "bylex"):
			rs.kind, kindSet = byLexKind, true
		case !kindSet && command.Is(a, "byscore"):
			rs.kind, kindSet = byScoreKind, true
		default:
			return rs, rerr.ErrSyntax
		}
	}
	if rs.count != -1 && rs.kind == byRankKind {
		return rs, rerr.Errorf("ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX")
	}
	if rs.withScores && rs.kind == byLexKind {
		return rs, rerr.Errorf("ERR syntax error, WITHSCORES not supported in combination with BYLEX")
	}
	lo, hi := args[at], args[at+1]
	if rs.rev && rs.kind != byRankKind {
		lo, hi = hi, lo // given as max, min
	}
	var err error
	switch rs.kind {
	case byRankKind:
		if rs.start, err = command.Int(lo); err != nil {
			return rs, err
		}
		rs.stop, err = command.Int(hi)
	case byScoreKind:
		if rs.smin, err = parseScoreBound(lo); err == nil {
			rs.smax, err = parseScoreBound(hi)
		}
	case byLexKind:
		if rs.lmin, err = parseLexBound(lo); err == nil {
			rs.lmax, err = parseLexBound(hi)
		}
	}
	return rs, err
}

// fetch returns the entries of the range.
func (rs rangeSpec) fetch(set rzset.ZSet) ([]rzset.Entry, error) {
	if set.Coll == nil {
		return nil, nil
	}
	switch rs.kind {
	case byScoreKind:
		return set.ByScore(rs.smin, rs.smax, rs.rev, rs.offset, rs.count)
	case byLexKind:
		return set.ByLex(rs.lmin, rs.lmax, rs.rev, rs.offset, rs.count)
	}
	return set.ByRank(rs.start, rs.stop, rs.rev)
}

// ZRANGE key start stop [BYSCORE | BYLEX] [REV] [LIMIT offset count]
// [WITHSCORES]
type zrange struct {
	key []byte
	rangeSpec
}

func parseZRange(args [][]byte) (command.Runner, error) {
	rs, err := parseRange(args, 2, byRankKind, false, false, false, false)
	return zrange{args[1], rs}, err
}

func (z zrange) Run(c *command.Ctx) error {
	set, _, err := rzset.Open(c.Tx, z.key, false)
	if err != nil {
		return err
	}
	es, err := z.fetch(set)
	if err != nil {
		return err
	}
	writeEntries(c, es, z.withScores)
	return nil
}
