package tdigest

import (
	"bytes"
	"errors"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rtdigest"
)

// TDIGEST.MERGE destination numkeys source [source ...] [COMPRESSION
// compression] [OVERRIDE]: the destination becomes a new digest holding
// its own observations (unless OVERRIDE or it is missing) and every
// source's. Its compression is the one given, else the destination's
// when it exists and OVERRIDE is not given, else the sources' largest.
type merge struct {
	dst  []byte
	args [][]byte // numkeys on, checked once the destination's type is
}

func parseMerge(args [][]byte) (command.Runner, error) { return merge{args[1], args[2:]}, nil }

func (m merge) Run(c *command.Ctx) error {
	dst, err := rtdigest.Open(c.Tx, m.dst)
	if err != nil {
		return err
	}
	n, err := command.Int(m.args[0])
	switch {
	case err != nil:
		return rerr.Errorf("ERR T-Digest: error parsing numkeys")
	case n <= 0:
		return rerr.Errorf("ERR T-Digest: numkeys needs to be a positive integer")
	case n > int64(len(m.args)-1):
		return rerr.ErrArity("tdigest.merge")
	}
	srcKeys, opts := m.args[1:1+n], m.args[1+n:]
	var compr int64
	useMax := dst == nil
	if dst != nil {
		compr = dst.D.Compression
	}
	override := false
	if len(opts) > 0 {
		at, found := index(opts, "compression")
		if found {
			useMax = false
			if at+1 >= len(opts) {
				return rerr.ErrArity("tdigest.merge")
			}
			if compr, err = compression(opts[at+1]); err != nil {
				return err
			}
		}
		if _, override = index(opts, "override"); override && !found {
			useMax, compr = true, 0
		}
		if !found && !override {
			return errKeyword
		}
	}
	var start *rtdigest.Digest
	if dst != nil {
		if err := dst.Load(); err != nil {
			return err
		}
		start = &dst.D
	}
	srcs := make([]*rtdigest.Digest, len(srcKeys))
	for i, key := range srcKeys {
		if bytes.Equal(key, m.dst) {
			if start == nil {
				return errNoKey
			}
			srcs[i] = start
		} else if srcs[i], err = load(c, key); err != nil {
			return err
		}
		if useMax {
			compr = max(compr, srcs[i].Compression)
		}
	}
	if compr > rtdigest.MaxCompression {
		return errNoMemDest
	}
	out := rtdigest.New(compr)
	if start != nil && !override {
		srcs = append([]*rtdigest.Digest{start}, srcs...) // the destination's own first
	}
	for _, s := range srcs {
		if err := out.MergeFrom(s); err != nil {
			if errors.Is(err, rtdigest.ErrOverflow) {
				return errOverflow
			}
			return err
		}
	}
	// Redis replaces the value: the destination's expiry goes too.
	if dst != nil {
		if _, err := c.Tx.Delete(m.dst); err != nil {
			return err
		}
	}
	if _, err := rtdigest.CreateFrom(c.Tx, m.dst, out); err != nil {
		return err
	}
	c.W.OK()
	return nil
}

// index returns the position of the first argument equal to token (in
// any case).
func index(args [][]byte, token string) (int, bool) {
	for i, a := range args {
		if command.Is(a, token) {
			return i, true
		}
	}
	return -1, false
}
