package tdigest

import "github.com/rekv/rekv/actors/command"

// TDIGEST.RESET key: empties the digest, keeping its compression.
type reset struct{ key []byte }

func parseReset(args [][]byte) (command.Runner, error) { return reset{args[1]}, nil }

func (r reset) Run(c *command.Ctx) error {
	s, err := open(c, r.key)
	if err != nil {
		return err
	}
	if err := s.Reset(); err != nil {
		return err
	}
	if err := s.Flush(); err != nil {
		return err
	}
	c.W.OK()
	return nil
}
