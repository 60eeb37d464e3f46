package stream

import (
	"math"
	"strconv"
	"strings"

	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rstream"
	"github.com/rekv/rekv/codec"
)

var (
	errInvalidID = rerr.Errorf("ERR Invalid stream ID specified as stream command argument")
	errBadStart  = rerr.Errorf("ERR invalid start ID for the interval")
	errBadEnd    = rerr.Errorf("ERR invalid end ID for the interval")
)

// parseID parses "ms-seq" or "ms" (seq missingSeq); "-" and "+" when
// allowed.
func parseID(b []byte, missingSeq uint64, specials bool) (codec.StreamID, error) {
	s := string(b)
	if specials {
		switch s {
		case "-":
			return codec.StreamID{}, nil
		case "+":
			return rstream.MaxID, nil
		}
	}
	msPart, seqPart, hasSeq := strings.Cut(s, "-")
	ms, ok := parseULL(msPart)
	if !ok {
		return codec.StreamID{}, errInvalidID
	}
	if !hasSeq {
		return codec.StreamID{Ms: ms, Seq: missingSeq}, nil
	}
	seq, ok := parseULL(seqPart)
	if !ok {
		return codec.StreamID{}, errInvalidID
	}
	return codec.StreamID{Ms: ms, Seq: seq}, nil
}

// parseULL parses an unsigned 64-bit number as Redis's string2ull does
// (strtoull: leading white space and a '+' sign are accepted).
func parseULL(s string) (uint64, bool) {
	if s == "" {
		return 0, false
	}
	if n, err := strconv.ParseUint(s, 10, 64); err == nil {
		return n, true
	}
	t := strings.TrimLeft(s, " \t\n\v\f\r")
	t = strings.TrimPrefix(t, "+")
	if t == "" || t[0] < '0' || t[0] > '9' {
		return 0, false
	}
	n, err := strconv.ParseUint(t, 10, 64)
	return n, err == nil
}

// parseRangeID parses a range bound: "-", "+", an ID, or "(ID" exclusive
// (Redis 7.0). start chooses the missing-seq default and the exclusive
// adjustment.
func parseRangeID(b []byte, start bool) (codec.StreamID, error) {
	missing := uint64(0)
	if !start {
		missing = math.MaxUint64
	}
	if len(b) > 0 && b[0] == '(' {
		if len(b) == 2 && (b[1] == '-' || b[1] == '+') || len(b) == 1 {
			return codec.StreamID{}, errInvalidID
		}
		id, err := parseID(b[1:], missing, false)
		if err != nil {
			return id, err
		}
		if start {
			if id == rstream.MaxID {
				return id, errBadStart
			}
			return incr(id), nil
		}
		if id == (codec.StreamID{}) {
			return id, errBadEnd
		}
		return decr(id), nil
	}
	return parseID(b, missing, true)
}

func incr(id codec.StreamID) codec.StreamID {
	if id.Seq == math.MaxUint64 {
		return codec.StreamID{Ms: id.Ms + 1}
	}
	return codec.StreamID{Ms: id.Ms, Seq: id.Seq + 1}
}

func decr(id codec.StreamID) codec.StreamID {
	if id.Seq == 0 {
		return codec.StreamID{Ms: id.Ms - 1, Seq: math.MaxUint64}
	}
	return codec.StreamID{Ms: id.Ms, Seq: id.Seq - 1}
}

// formatID renders an ID as Redis does.
func formatID(id codec.StreamID) string {
	return strconv.FormatUint(id.Ms, 10) + "-" + strconv.FormatUint(id.Seq, 10)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
