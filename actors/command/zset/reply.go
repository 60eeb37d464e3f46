package zset

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rzset"
)

// parseScoreBound parses "1.5", "(1.5", "-inf", "+inf".
func parseScoreBound(b []byte) (rzset.ScoreBound, error) {
	sb := rzset.ScoreBound{}
	if len(b) > 0 && b[0] == '(' {
		sb.Excl = true
		b = b[1:]
	}
	f, ok := command.ParseFloat(b)
	if !ok {
		return sb, rerr.Errorf("ERR min or max is not a float")
	}
	sb.V = f
	return sb, nil
}

func parseLexBound(b []byte) (rzset.LexBound, error) {
	switch {
	case len(b) == 1 && b[0] == '-':
		return rzset.LexBound{Neg: true}, nil
	case len(b) == 1 && b[0] == '+':
		return rzset.LexBound{Plus: true}, nil
	case len(b) > 0 && b[0] == '[':
		return rzset.LexBound{V: b[1:]}, nil
	case len(b) > 0 && b[0] == '(':
		return rzset.LexBound{V: b[1:], Excl: true}, nil
	}
	return rzset.LexBound{}, rerr.Errorf("ERR min or max not valid string range item")
}

// writeEntries writes members, with scores when withScores: RESP2 a flat
// array, RESP3 an array of [member, score] pairs.
func writeEntries(c *command.Ctx, es []rzset.Entry, withScores bool) {
	switch {
	case withScores && c.W.Proto() == 3:
		c.W.Array(len(es))
		for _, e := range es {
			c.W.Array(2)
			c.W.Bulk(e.Member)
			c.W.Double(e.Score)
		}
	case withScores:
		c.W.Array(2 * len(es))
		for _, e := range es {
			c.W.Bulk(e.Member)
			c.W.Double(e.Score)
		}
	default:
		c.W.Array(len(es))
		for _, e := range es {
			c.W.Bulk(e.Member)
		}
	}
}
