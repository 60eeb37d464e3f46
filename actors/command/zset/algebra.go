package zset

import (
	"bytes"
	"cmp"
	"math"
	"slices"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rzset"
	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/resp"
)

type setOp int

const (
	opUnion setOp = iota
	opInter
	opDiff
)

type aggregate int

const (
	aggSum aggregate = iota
	aggMin
	aggMax
)

// ZUNION/ZINTER/ZDIFF numkeys key [key ...] [WEIGHTS w ...]
// [AGGREGATE SUM|MIN|MAX] [WITHSCORES], their STORE forms
// (destination numkeys key ...), and ZINTERCARD numkeys key [LIMIT n].
// Inputs may be sorted sets or sets (members score 1). As in Redis, the
// keys are type-checked before the options are, so an option error found
// by the parser is reported only after the keys pass.
type zsetOpCmd struct {
	op         setOp
	dst        []byte
	keys       [][]byte
	weights    []float64
	agg        aggregate
	withScores bool
	card       bool
	limit      int64
	optErr     error
}

func setOpParser(name string, op setOp, store bool) func([][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) {
		at := 1
		z := zsetOpCmd{op: op}
		if store {
			z.dst, at = args[1], 2
		}
		if err := z.parseKeys(args, at, name); err != nil {
			return nil, err
		}
		z.optErr = z.parseOptions(args[at+1+len(z.keys):], store)
		return z, nil
	}
}

func parseZInterCard(args [][]byte) (command.Runner, error) {
	z := zsetOpCmd{op: opInter, card: true}
	if err := z.parseKeys(args, 1, "zintercard"); err != nil {
		return nil, err
	}
	z.optErr = z.parseOptions(args[2+len(z.keys):], false)
	return z, nil
}

func (z *zsetOpCmd) parseKeys(args [][]byte, at int, name string) error {
	n, err := command.Int(args[at])
	if err != nil {
		return err
	}
	if n < 1 {
		return rerr.Errorf("ERR at least 1 input key is needed for '%s' command", name)
	}
	if n > int64(len(args)-at-1) {
		return rerr.ErrSyntax
	}
	z.keys = args[at+1 : at+1+int(n)]
	z.weights = make([]float64, n)
	for i := range z.weights {
		z.weights[i] = 1
	}
	return nil
}

func (z *zsetOpCmd) parseOptions(opts [][]byte, store bool) error {
	for j := 0; j < len(opts); {
		left := len(opts) - j
		switch o := opts[j]; {
		case z.op != opDiff && !z.card && left >= len(z.keys)+1 && command.Is(o, "weights"):
			for i := range z.keys {
				w, ok := command.ParseFloat(opts[j+1+i])
				if !ok {
					return rerr.Errorf("ERR weight value is not a float")
				}
				z.weights[i] = w
			}
			j += 1 + len(z.keys)
		case z.op != opDiff && !z.card && left >= 2 && command.Is(o, "aggregate"):
			switch a := opts[j+1]; {
			case command.Is(a, "sum"):
				z.agg = aggSum
			case command.Is(a, "min"):
				z.agg = aggMin
			case command.Is(a, "max"):
				z.agg = aggMax
			default:
				return rerr.ErrSyntax
			}
			j += 2
		case !store && !z.card && command.Is(o, "withscores"):
			z.withScores = true
			j++
		case z.card && left >= 2 && command.Is(o, "limit"):
			n, ok := resp.ParseInt(opts[j+1])
			if !ok || n < 0 {
				return rerr.Errorf("ERR LIMIT can't be negative")
			}
			z.limit = n
			j += 2
		default:
			return rerr.ErrSyntax
		}
	}
	return nil
}

// source is one input: its members with scores (weighted), and whether the
// key exists.
type source struct {
	entries map[string]float64
	order   [][]byte
}

func (z zsetOpCmd) load(c *command.Ctx) ([]*source, error) {
	srcs := make([]*source, len(z.keys))
	// Type-check every key before reading any.
	types := make([]codec.Type, len(z.keys))
	for i, k := range z.keys {
		t, err := c.Tx.Type(k)
		if err != nil {
			return nil, err
		}
		if t != codec.TypeNone && t != codec.TypeZSet && t != codec.TypeSet {
			return nil, rerr.ErrWrongType
		}
		types[i] = t
	}
	if z.optErr != nil {
		return nil, z.optErr
	}
	for i, k := range z.keys {
		t := types[i] // asked once: a second read's error was ignored, and the key skipped as missing
		if t == codec.TypeNone {
			continue
		}
		coll, err := c.Tx.Open(k, t, false)
		if err != nil {
			return nil, err
		}
		s := &source{entries: map[string]float64{}}
		err = coll.Scan(nil, nil, false, 0, func(m, v []byte) (bool, error) {
			score := 1.0
			if t == codec.TypeZSet {
				var err error
				if score, err = rzset.DecodeScore(v); err != nil {
					return false, err
				}
			}
			score *= z.weights[i]
			if math.IsNaN(score) {
				score = 0
			}
			s.entries[string(m)] = score
			s.order = append(s.order, command.Copy(m))
			return true, nil
		})
		if err != nil {
			return nil, err
		}
		srcs[i] = s
	}
	return srcs, nil
}

func (z zsetOpCmd) combine(a, b float64) float64 {
	switch z.agg {
	case aggMin:
		return min(a, b)
	case aggMax:
		return max(a, b)
	}
	s := a + b
	if math.IsNaN(s) {
		return 0
	}
	return s
}

func (z zsetOpCmd) compute(srcs []*source) []rzset.Entry {
	var out []rzset.Entry
	switch z.op {
	case opUnion:
		acc := map[string]float64{}
		var order []string
		for _, s := range srcs {
			if s == nil {
				continue
			}
			for _, m := range s.order {
				v := s.entries[string(m)]
				if cur, ok := acc[string(m)]; ok {
					acc[string(m)] = z.combine(cur, v)
				} else {
					acc[string(m)] = v
					order = append(order, string(m))
				}
			}
		}
		for _, m := range order {
			out = append(out, rzset.Entry{Member: []byte(m), Score: acc[m]})
		}
	case opInter:
		for _, s := range srcs {
			if s == nil {
				return nil
			}
		}
		for _, m := range srcs[0].order {
			score, in := srcs[0].entries[string(m)], true
			for _, s := range srcs[1:] {
				v, ok := s.entries[string(m)]
				if !ok {
					in = false
					break
				}
				score = z.combine(score, v)
			}
			if in {
				out = append(out, rzset.Entry{Member: m, Score: score})
				if z.card && z.limit > 0 && int64(len(out)) >= z.limit {
					break
				}
			}
		}
	case opDiff:
		if srcs[0] == nil {
			return nil
		}
		for _, m := range srcs[0].order {
			in := false
			for _, s := range srcs[1:] {
				if s != nil {
					if _, ok := s.entries[string(m)]; ok {
						in = true
						break
					}
				}
			}
			if !in {
				out = append(out, rzset.Entry{Member: m, Score: srcs[0].entries[string(m)]})
			}
		}
	}
	slices.SortFunc(out, func(a, b rzset.Entry) int {
		if c := cmp.Compare(a.Score, b.Score); c != 0 {
			return c
		}
		return bytes.Compare(a.Member, b.Member)
	})
	return out
}

func (z zsetOpCmd) Run(c *command.Ctx) error {
	srcs, err := z.load(c)
	if err != nil {
		return err
	}
	es := z.compute(srcs)
	switch {
	case z.card:
		c.W.Int(int64(len(es)))
	case z.dst != nil:
		if err := storeResult(c, z.dst, es); err != nil {
			return err
		}
		c.W.Int(int64(len(es)))
	default:
		writeEntries(c, es, z.withScores)
	}
	return nil
}
