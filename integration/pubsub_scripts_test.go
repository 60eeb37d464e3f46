package integration

// pubsubScripts are Pub/Sub differential scripts (see scripts): the
// replies a subscriber gets to its own commands, in RESP2 (subscriber
// mode) and RESP3.
func pubsubScripts() map[string]string {
	return map[string]string{
		"pubsub-commands": `PUBSUB NUMPAT
PUBSUB NUMSUB a b
PUBSUB CHANNELS
PUBLISH nobody hello
UNSUBSCRIBE
PUNSUBSCRIBE
UNSUBSCRIBE x
SUBSCRIBE
PUBSUB
PUBSUB FOO
PUBSUB CHANNELS a b
PUBSUB NUMPAT x
PUBLISH a
SUBSCRIBE a b a
PSUBSCRIBE n* x?
PING
PING hi
GET k
SET k v
UNSUBSCRIBE b
PUNSUBSCRIBE x?
PUBSUB NUMSUB a b c
PUBSUB NUMPAT
PUBSUB CHANNELS
PUBSUB CHANNELS b*
UNSUBSCRIBE a
PUNSUBSCRIBE n*
PING
GET k`,
		"config-notify": `CONFIG GET notify-keyspace-events
CONFIG SET notify-keyspace-events KEA
CONFIG GET notify-keyspace-events
CONFIG SET notify-keyspace-events Elgx
CONFIG GET notify-keyspace-events
CONFIG SET notify-keyspace-events g$lshzxetK
CONFIG GET notify-keyspace-events
CONFIG SET notify-keyspace-events Q
CONFIG GET notify-keyspace-events
CONFIG SET notify-keyspace-events
CONFIG SET nosuch 1
CONFIG SET notify-keyspace-events ""
CONFIG GET notify-keyspace-events`,
	}
}
