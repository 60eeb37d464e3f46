// Package hash implements the Redis hash commands on collection sub-keys:
// one sub-key per field under the key's live version, the field's value as
// the sub-key's value, and the field count in the meta. One file per
// command; Commands is the table.
package hash
