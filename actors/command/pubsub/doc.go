// Package pubsub implements the Pub/Sub commands: SUBSCRIBE, UNSUBSCRIBE,
// PSUBSCRIBE, PUNSUBSCRIBE, PUBLISH and PUBSUB CHANNELS/NUMSUB/NUMPAT. They
// are connection commands (no storage): subscriptions are the connection's
// (command.Client), channels and delivery the server's (command.Server).
// Confirmations are pushes (RESP3) or arrays in RESP2, one per name.
package pubsub
