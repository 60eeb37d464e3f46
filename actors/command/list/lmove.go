package list

import (
	"bytes"
	"errors"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rlist"
)

// LMOVE source destination LEFT|RIGHT LEFT|RIGHT and RPOPLPUSH source
// destination. Atomic across shards: the router holds both keys' shards
// and the move is one transaction.
type lmove struct {
	src, dst         []byte
	fromLeft, toLeft bool
}

func parseLMove(args [][]byte) (command.Runner, error) {
	from, err := side(args[3])
	if err != nil {
		return nil, err
	}
	to, err := side(args[4])
	if err != nil {
		return nil, err
	}
	return lmove{args[1], args[2], from, to}, nil
}

func parseRPopLPush(args [][]byte) (command.Runner, error) {
	return lmove{args[1], args[2], false, true}, nil
}

func (x lmove) Run(c *command.Ctx) error {
	v, err := x.move(c)
	if err != nil {
		return err
	}
	if v == nil {
		c.W.Null()
	} else {
		c.W.Bulk(v)
	}
	return nil
}

// errDstWrongType is WRONGTYPE for LMOVE's destination: the same reply,
// but not rerr.ErrWrongType, which a blocked waiter's serve takes as
// "keep waiting" (the source changed type).
var errDstWrongType = &rerr.Error{Msg: rerr.ErrWrongType.Msg}

// move moves one element and returns it; nil if the source is missing.
func (x lmove) move(c *command.Ctx) ([]byte, error) {
	src, err := rlist.Open(c.Tx, x.src, false)
	if err != nil || src == nil {
		return nil, err
	}
	dst := src
	if !bytes.Equal(x.src, x.dst) {
		if dst, err = rlist.Open(c.Tx, x.dst, true); err != nil {
			if errors.Is(err, rerr.ErrWrongType) {
				// The destination's type is an answer even to a blocked
				// BLMOVE (Redis replies it to the waiter), unlike the
				// source's, which keeps a waiter waiting for a list.
				return nil, errDstWrongType
			}
			return nil, err
		}
	}
	n := c.Tx.Journal().NoteCount()
	vs, err := popNoted(src, x.fromLeft, 1)
	if err != nil {
		return nil, err
	}
	m := c.Tx.Journal().NoteCount()
	if err := pushNoted(dst, x.toLeft, vs[0]); err != nil {
		return nil, err
	}
	c.Tx.Journal().NotesTo(n, m) // Redis announces the push first
	return vs[0], nil
}
