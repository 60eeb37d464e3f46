// Package set implements the Redis set commands: one sub-key per member
// (empty value) under the key's live version and the member count in the
// meta. Set algebra reads members in byte order; replies whose order Redis
// leaves unspecified come back sorted. One file per command; Commands is
// the table.
package set
