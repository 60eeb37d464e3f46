package strings

import (
	"math"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// extended holds the options of SET and GETEX, parsed by one function as
// Redis's parseExtendedStringArgumentsOrReply does.
type extended struct {
	nx, xx, get, keepTTL, persist bool
	exp                           expiry
}

// parseExtended parses args as SET's options (isSet) or GETEX's, with the
// same exclusions as Redis: EX/PX/EXAT/PXAT exclude each other and
// KEEPTTL/PERSIST; NX excludes XX. cmd names the command in errors.
func parseExtended(args [][]byte, isSet bool, cmd string) (extended, error) {
	var o extended
	var ex, px, exat, pxat bool
	var expArg []byte
	for j := 0; j < len(args); j++ {
		opt := args[j]
		hasNext := j+1 < len(args)
		noTTL := !o.keepTTL && !o.persist
		switch {
		case isSet && command.Is(opt, "nx") && !o.xx:
			o.nx = true
		case isSet && command.Is(opt, "xx") && !o.nx:
			o.xx = true
		case isSet && command.Is(opt, "get"):
			o.get = true
		case isSet && command.Is(opt, "keepttl") && !ex && !px && !exat && !pxat:
			o.keepTTL = true
		case !isSet && command.Is(opt, "persist") && !ex && !px && !exat && !pxat:
			o.persist = true
		case command.Is(opt, "ex") && noTTL && !px && !exat && !pxat && hasNext:
			ex, expArg = true, args[j+1]
			j++
		case command.Is(opt, "px") && noTTL && !ex && !exat && !pxat && hasNext:
			px, expArg = true, args[j+1]
			j++
		case command.Is(opt, "exat") && noTTL && !ex && !px && !pxat && hasNext:
			exat, expArg = true, args[j+1]
			j++
		case command.Is(opt, "pxat") && noTTL && !ex && !px && !exat && hasNext:
			pxat, expArg = true, args[j+1]
			j++
		default:
			return extended{}, rerr.ErrSyntax
		}
	}
	if expArg != nil {
		var err error
		if o.exp, err = parseExpiry(cmd, expArg, ex || exat, exat || pxat); err != nil {
			return extended{}, err
		}
	}
	return o, nil
}

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
