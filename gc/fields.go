package gc

import (
	"context"
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/codec"
)

// Hash-field expiry (Redis 7.4's active expiry of hash fields). Each hash
// whose fields carry TTLs has one hash-TTL index entry at a time at or
// before its earliest field expiry; a pass walks the entries due, and the
// key's shard deletes the expired fields ("hexpired", and "del" for a hash
// left empty) and moves the entry to the next expiry
// (store.Tx.ExpireFields).

// expireFields runs one bounded walk of the due hash-TTL entries and
// returns how many fields it expired.
func (c *Collector) expireFields(ctx context.Context, budget int) (int, error) {
	if budget <= 0 {
		return 0, nil
	}
	start, end := codec.HashTTLRangeUntil(time.Now().UnixMilli())
	groups, _, _, err := c.walkDue(start, end, &c.fieldCursor, budget, codec.DecodeHashTTLKey)
	if err != nil {
		return 0, err
	}
	expired, err := onShards(ctx, c, groups, fieldsSpec(), func(items []ttlItem, slot int) countedRun {
		return &fieldsRun{items: items, slot: slot}
	})
	c.stats.FieldsExpired.Add(int64(expired))
	return expired, err
}

// fieldsRun expires the due fields of hashes on their shard.
type fieldsRun struct {
	items []ttlItem
	slot  int
	n     int
}

// fieldsSpec declares the GC's field expiry; it notes its own events
// ("hexpired", then "del" for an emptied hash).
func fieldsSpec() *command.Spec {
	return &command.Spec{Name: "gc-hexpire", Flags: command.Write | command.OwnEvents | command.NoTouch, Class: command.NotifyHash}
}

func (r *fieldsRun) count() int { return r.n }

func (r *fieldsRun) Run(c *command.Ctx) error {
	r.n = 0 // a conflict re-runs it
	if c.Tx.Records().Slot() != r.slot {
		return nil // SWAPDB since the walk: next round
	}
	for _, it := range r.items {
		n, err := c.Tx.ExpireFields(it.key, it.expireAt)
		if err != nil {
			return err
		}
		r.n += n
	}
	return nil
}
