package tdigest

import "github.com/rekv/rekv/actors/command"

// TDIGEST.INFO key: the digest's compression, capacity, node counts and
// weights, compressions and memory (a map in RESP3), as stored: a read
// does not store the compression it computes.
type info struct{ key []byte }

func parseInfo(args [][]byte) (command.Runner, error) { return info{args[1]}, nil }

func (in info) Run(c *command.Ctx) error {
	s, err := open(c, in.key)
	if err != nil {
		return err
	}
	d := &s.D
	c.W.Map(9)
	for _, f := range []struct {
		name string
		v    int64
	}{
		{"Compression", d.Compression}, {"Capacity", d.Cap}, {"Merged nodes", d.Merged}, {"Unmerged nodes", d.Unmerged},
		{"Merged weight", d.MergedWeight}, {"Unmerged weight", d.UnmergedWeight}, {"Observations", d.Size()},
		{"Total compressions", d.Compressions}, {"Memory usage", d.MemoryUsage()},
	} {
		c.W.Simple(f.name)
		c.W.Int(f.v)
	}
	return nil
}
