package stream

import (
	"math"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rstream"
	"github.com/rekv/rekv/codec"
)

// XADD key [NOMKSTREAM] [MAXLEN|MINID [=|~] threshold [LIMIT count]]
// <* | ms-* | ms[-seq]> field value [field value ...]
type xadd struct {
	key        []byte
	noMkStream bool
	trim       trimSpec
	auto       bool // "*"
	autoSeq    bool // "ms-*"
	id         codec.StreamID
	fields     [][]byte
}

func parseXAdd(args [][]byte) (command.Runner, error) {
	x := &xadd{key: args[1]}
	i := 2
	for i < len(args) {
		if command.Is(args[i], "nomkstream") {
			x.noMkStream = true
			i++
			continue
		}
		next, err := x.trim.parseTrimOption(args, i)
		if err != nil {
			return nil, err
		}
		if next == i {
			break
		}
		i = next
	}
	if err := x.trim.check(); err != nil {
		return nil, err
	}
	if i >= len(args) || (len(args)-i-1) < 2 || (len(args)-i-1)%2 == 1 {
		return nil, rerr.ErrArity("xadd")
	}
	idArg := string(args[i])
	switch {
	case idArg == "*":
		x.auto = true
	case len(idArg) > 2 && idArg[len(idArg)-2:] == "-*":
		id, err := parseID(args[i][:len(idArg)-2], 0, false)
		if err != nil {
			return nil, err
		}
		x.id, x.autoSeq = id, true
	default:
		id, err := parseID(args[i], 0, false)
		if err != nil {
			return nil, err
		}
		if id == (codec.StreamID{}) {
			return nil, rerr.Errorf("ERR The ID specified in XADD must be greater than 0-0")
		}
		x.id = id
	}
	x.fields = args[i+1:]
	return x, nil
}

func (x *xadd) Run(c *command.Ctx) error {
	s, err := rstream.Open(c.Tx, x.key, !x.noMkStream)
	if err != nil {
		return err
	}
	if s == nil {
		c.W.Null()
		return nil
	}
	last := s.Meta().LastID
	if last == rstream.MaxID {
		return rerr.Errorf("ERR The stream has exhausted the last possible ID, unable to add more items")
	}
	id := x.id
	switch {
	case x.auto:
		now := uint64(max(c.Now, 0))
		if now > last.Ms {
			id = codec.StreamID{Ms: now}
		} else {
			id = incr(last)
		}
	case x.autoSeq:
		switch {
		case id.Ms == last.Ms && last.Seq == math.MaxUint64:
			return rerr.Errorf("ERR Elements are too large to be stored")
		case id.Ms == last.Ms:
			id.Seq = last.Seq + 1
		case id.Ms < last.Ms:
			return rerr.Errorf("ERR The ID specified in XADD is equal or smaller than the target stream top item")
		}
	}
	if !last.Less(id) {
		return rerr.Errorf("ERR The ID specified in XADD is equal or smaller than the target stream top item")
	}
	entries, bytes := c.StreamNodeLimits()
	if err := s.Add(id, x.fields, rstream.NodeLimits{Entries: entries, Bytes: bytes}); err != nil {
		return err
	}
	s.Note(uint16(command.NotifyStream), "xadd")
	if x.trim.set {
		n, err := x.trim.apply(c, s)
		if err != nil {
			return err
		}
		if n > 0 {
			s.Note(uint16(command.NotifyStream), "xtrim")
		}
	}
	if (x.auto || x.autoSeq || x.trim.approx) && c.Effects() {
		// The ID this node chose, and an exact trim to the length this
		// node's (approximate) trim left: what a replica repeats.
		args := [][]byte{[]byte("XADD"), x.key}
		if x.trim.set {
			args = append(args, []byte("MAXLEN"), []byte("="), command.Itoa(s.Len()))
		}
		args = append(args, []byte(formatID(id)))
		c.Effect(append(args, x.fields...)...)
	}
	c.W.BulkString(formatID(id))
	return nil
}
