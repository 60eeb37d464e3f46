package cuckoo

import (
	"math"
	"strings"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rcuckoo"
)

// CF.RESERVE key capacity [BUCKETSIZE n] [MAXITERATIONS n] [EXPANSION n]:
// an empty filter of capacity/bucketsize buckets (rounded up to a power
// of two); ERR item exists when the key holds one.
type reserve struct {
	key []byte
	h   rcuckoo.Header
}

// maxCapacity bounds a filter's capacity (its buckets then take 64 GiB at
// most with the largest bucket size).
const maxCapacity = 1 << 36

func parseReserve(args [][]byte) (command.Runner, error) {
	if len(args)%2 == 0 {
		return nil, rerr.ErrArity("cf.reserve")
	}
	capacity, err := command.Int(args[2])
	if err != nil || capacity > maxCapacity {
		return nil, rerr.Errorf("ERR Bad capacity")
	}
	// RedisBloom looks each option up wherever it is, in this order.
	opts := []struct {
		name   string
		v      int64
		ok     func(int64) bool
		errMsg string
	}{
		{"MAXITERATIONS", defaultIterations, func(v int64) bool { return v > 0 && v <= math.MaxUint16 },
			"ERR MAXITERATIONS parameter needs to be a positive integer"},
		{"BUCKETSIZE", defaultBucketSize, func(v int64) bool { return v > 0 && v <= 255 },
			"ERR BUCKETSIZE parameter needs to be a positive integer"},
		{"EXPANSION", defaultExpansion, func(v int64) bool { return v >= 0 && v <= 32768 },
			"ERR EXPANSION parameter needs to be a non-negative integer"},
	}
	for i := range opts {
		for j := 3; j+1 < len(args); j++ {
			if !command.Is(args[j], strings.ToLower(opts[i].name)) {
				continue
			}
			v, err := command.Int(args[j+1])
			if err != nil {
				return nil, rerr.Errorf("ERR Couldn't parse %s", opts[i].name)
			}
			if !opts[i].ok(v) {
				return nil, rerr.Errorf("%s", opts[i].errMsg)
			}
			opts[i].v = v
			break
		}
	}
	bucketSize := opts[1].v
	if bucketSize*2 > capacity {
		return nil, errTooSmall
	}
	return reserve{args[1], rcuckoo.NewHeader(uint64(capacity), uint16(bucketSize), uint16(opts[0].v), uint16(opts[2].v))}, nil
}

func (r reserve) Run(c *command.Ctx) error {
	f, err := rcuckoo.Open(c.Tx, r.key)
	if err != nil {
		return err
	}
	if f != nil {
		return errExists
	}
	if _, err := rcuckoo.Create(c.Tx, r.key, r.h); err != nil {
		return err
	}
	c.W.OK()
	return nil
}
