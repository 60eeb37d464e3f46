package server

import (
	"strconv"
	"time"

	"github.com/rekv/rekv/actors/command"
)

// TIME: unix seconds and microseconds.
type timeCmd struct{}

func parseTime([][]byte) (command.Runner, error) { return timeCmd{}, nil }

func (timeCmd) Run(c *command.Ctx) error {
	us := time.Now().UnixMicro()
	c.W.Array(2)
	c.W.Bulk(strconv.AppendInt(nil, us/1e6, 10))
	c.W.Bulk(strconv.AppendInt(nil, us%1e6, 10))
	return nil
}
