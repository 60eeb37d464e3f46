// Package strings implements the Redis string commands. Each file holds one
// command: its syntax line, a typed args struct, a parse function that
// reads every argument before storage is touched, and a Run method.
// Commands returns the registration table.
package strings
