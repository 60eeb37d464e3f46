package stream

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rstream"
	"github.com/rekv/rekv/codec"
)

// What a replica runs for the consumer-group commands, whose effects
// depend on this node's clock (delivery times, idle times), as Redis 7.0
// propagates them: each delivery or claim as an XCLAIM ... FORCE JUSTID
// with its delivery time and count, a group's new position as XGROUP
// SETID, a consumer created as XGROUP CREATECONSUMER.

// claimEffect records entry id pending for consumer, delivered at
// delivered (unix ms) deliveries times.
func claimEffect(c *command.Ctx, key, group, consumer []byte, id codec.StreamID, delivered, deliveries int64) {
	if !c.Effects() {
		return
	}
	c.Effect([]byte("XCLAIM"), key, group, consumer, []byte("0"), []byte(formatID(id)),
		[]byte("TIME"), command.Itoa(delivered), []byte("RETRYCOUNT"), command.Itoa(deliveries),
		[]byte("FORCE"), []byte("JUSTID"))
}

// groupEffect records group g's last delivered ID and entries read.
func groupEffect(c *command.Ctx, key []byte, g rstream.Group) {
	if !c.Effects() {
		return
	}
	args := [][]byte{[]byte("XGROUP"), []byte("SETID"), key, g.Name, []byte(formatID(g.LastDelivered))}
	if g.EntriesRead >= 0 {
		args = append(args, []byte("ENTRIESREAD"), command.Itoa(g.EntriesRead))
	}
	c.Effect(args...)
}

// consumerEffect records a consumer created.
func consumerEffect(c *command.Ctx, key, group, consumer []byte) {
	c.Effect([]byte("XGROUP"), []byte("CREATECONSUMER"), key, group, consumer)
}

// ackEffect records a pending entry dropped (its entry was deleted).
func ackEffect(c *command.Ctx, key, group []byte, id codec.StreamID) {
	if c.Effects() {
		c.Effect([]byte("XACK"), key, group, []byte(formatID(id)))
	}
}
