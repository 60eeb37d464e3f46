package strings

import (
	"math"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// expiry is a parsed EX/PX/EXAT/PXAT option.
type expiry struct {
	set      bool
	ms       int64 // milliseconds (relative or absolute)
	absolute bool
}

// parseExpiry validates an expire argument as Redis's
// getExpireMillisecondsOrReply does; seconds selects EX/EXAT units.
func parseExpiry(cmd string, arg []byte, seconds, absolute bool) (expiry, error) {
	v, err := command.Int(arg)
	if err != nil {
		return expiry{}, err
	}
	if v <= 0 || seconds && v > math.MaxInt64/1000 {
		return expiry{}, rerr.ErrInvalidExpire(cmd)
	}
	if seconds {
		v *= 1000
	}
	return expiry{set: true, ms: v, absolute: absolute}, nil
}

// at returns the absolute expiry in unix ms for the command time now.
func (e expiry) at(cmd string, now int64) (int64, error) {
	if e.absolute {
		return e.ms, nil
	}
	if e.ms > math.MaxInt64-now {
		return 0, rerr.ErrInvalidExpire(cmd)
	}
	return e.ms + now, nil
}
