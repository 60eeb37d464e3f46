package keys

import "github.com/rekv/rekv/actors/command"

// DEL key [key ...] and UNLINK key [key ...]. Deleting a collection writes
// only its meta and one garbage entry; the GC reclaims its members.
type del struct{ keys [][]byte }

func parseDel(args [][]byte) (command.Runner, error) { return del{args[1:]}, nil }

func (d del) Run(c *command.Ctx) error { return countTrue(c, d.keys, c.Tx.Delete) }
