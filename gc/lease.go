package gc

import (
	"errors"
	"time"

	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers"
)

// Lease makes one node at a time collect on a store shared by several:
// a record (codec.GCLeaseKey) naming its holder and an expiry, taken and
// renewed in transactions, so two nodes racing for it conflict and one
// wins. A holder renews it when half its term is left; a node that stops
// renewing loses it when it expires. It relies on node clocks agreeing to
// well within the term.
type Lease struct {
	Owner string        // this node's unique name
	Term  time.Duration // how long a take or renewal holds
	Now   func() time.Time
}

// Hold takes or renews the lease; false means another node holds it.
func (l *Lease) Hold(drv drivers.Driver) (bool, error) {
	now := l.Now().UnixMilli()
	tx, err := drv.Begin(true)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	b, err := tx.Get(codec.GCLeaseKey())
	if err != nil && !errors.Is(err, drivers.ErrNotFound) {
		return false, err
	}
	if err == nil {
		owner, until, err := codec.DecodeLease(b)
		if err != nil {
			return false, err
		}
		if owner != l.Owner && until > now {
			return false, nil
		}
		if owner == l.Owner && until-now > l.Term.Milliseconds()/2 {
			return true, nil
		}
	}
	if err := tx.Set(codec.GCLeaseKey(), codec.EncodeLease(l.Owner, now+l.Term.Milliseconds())); err != nil {
		return false, err
	}
	if err := tx.Commit(); err != nil {
		if errors.Is(err, drivers.ErrConflict) {
			return false, nil // another node took or renewed it meanwhile
		}
		return false, err
	}
	return true, nil
}
