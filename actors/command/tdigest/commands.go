package tdigest

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rtdigest"
)

// Commands returns the t-digest commands' registration table.
func Commands() []*command.Spec {
	key := command.KeySpec{First: 1, Last: 1, Step: 1}
	return []*command.Spec{
		{Name: "tdigest.create", Arity: -2, Flags: command.WriteFast, Keys: key, Event: "tdigest.create", Parse: parseCreate},
		{Name: "tdigest.add", Arity: -3, Flags: command.Write, Keys: key, Event: "tdigest.add", Parse: parseAdd},
		{Name: "tdigest.reset", Arity: 2, Flags: command.WriteFast, Keys: key, Event: "tdigest.reset", Parse: parseReset},
		{Name: "tdigest.merge", Arity: -4, Flags: command.Write, KeysFunc: command.NumKeys(2, true), Event: "tdigest.merge", Parse: parseMerge},
		{Name: "tdigest.min", Arity: 2, Flags: command.ReadFast, Keys: key, Parse: parseMinMax(false)},
		{Name: "tdigest.max", Arity: 2, Flags: command.ReadFast, Keys: key, Parse: parseMinMax(true)},
		{Name: "tdigest.quantile", Arity: -3, Flags: command.ReadFast, Keys: key, Parse: parseQuantile},
		{Name: "tdigest.cdf", Arity: -3, Flags: command.ReadFast, Keys: key, Parse: parseCDF},
		{Name: "tdigest.rank", Arity: -3, Flags: command.ReadFast, Keys: key, Parse: parseRank(false)},
		{Name: "tdigest.revrank", Arity: -3, Flags: command.ReadFast, Keys: key, Parse: parseRank(true)},
		{Name: "tdigest.byrank", Arity: -3, Flags: command.ReadFast, Keys: key, Parse: parseByRank(false)},
		{Name: "tdigest.byrevrank", Arity: -3, Flags: command.ReadFast, Keys: key, Parse: parseByRank(true)},
		{Name: "tdigest.trimmed_mean", Arity: 4, Flags: command.ReadOnly, Keys: key, Parse: parseTrimmedMean},
		{Name: "tdigest.info", Arity: 2, Flags: command.ReadFast, Keys: key, Parse: parseInfo},
	}
}

var (
	errNoKey     = rerr.Errorf("ERR T-Digest: key does not exist")
	errExists    = rerr.Errorf("ERR T-Digest: key already exists")
	errOverflow  = rerr.Errorf("ERR T-Digest: overflow detected")
	errKeyword   = rerr.Errorf("ERR T-Digest: wrong keyword")
	errBadCompr  = rerr.Errorf("ERR T-Digest: error parsing compression parameter")
	errNegCompr  = rerr.Errorf("ERR T-Digest: compression parameter needs to be a positive integer")
	errNoMemory  = rerr.Errorf("ERR T-Digest: allocation failed")
	errNoMemDest = rerr.Errorf("ERR T-Digest: allocation of destination digest failed")
)

// open returns the digest at key, or RedisBloom's error for a missing
// key.
func open(c *command.Ctx, key []byte) (*rtdigest.Sketch, error) {
	s, err := rtdigest.Open(c.Tx, key)
	if err == nil && s == nil {
		err = errNoKey
	}
	return s, err
}

// load returns the digest at key with its nodes, for a read.
func load(c *command.Ctx, key []byte) (*rtdigest.Digest, error) {
	s, err := open(c, key)
	if err != nil {
		return nil, err
	}
	if err := s.Load(); err != nil {
		return nil, err
	}
	return &s.D, nil
}

// compression parses a COMPRESSION argument.
func compression(arg []byte) (int64, error) {
	n, err := command.Int(arg)
	switch {
	case err != nil:
		return 0, errBadCompr
	case n <= 0:
		return 0, errNegCompr
	}
	return n, nil
}

// floats parses args as doubles (NaN refused), or returns bad.
func floats(args [][]byte, bad error) ([]float64, error) {
	out := make([]float64, len(args))
	for i, a := range args {
		f, ok := command.ParseFloat(a)
		if !ok {
			return nil, bad
		}
		out[i] = f
	}
	return out, nil
}

// doubles writes vs as an array of doubles.
func doubles(c *command.Ctx, vs []float64) {
	c.W.Array(len(vs))
	for _, v := range vs {
		c.W.Double(v)
	}
}
