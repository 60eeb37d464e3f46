package server

import (
	"math/rand/v2"
	"strings"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// LOLWUT [VERSION version [arg ...]]: like Redis 7, without VERSION (or
// with one it has no art for) it answers the version line alone; with
// VERSION 5 or 6 it draws rekv's own piece first: rows of cells that
// fall into disorder further down (the arguments: columns, rows).
type lolwut struct {
	art        bool
	cols, rows int
}

func parseLolwut(args [][]byte) (command.Runner, error) {
	l := lolwut{cols: 32, rows: 12}
	if len(args) >= 3 && command.Is(args[1], "version") {
		v, err := command.Int(args[2])
		if err != nil {
			return nil, rerr.ErrNotInteger
		}
		l.art = v == 5 || v == 6
		for i, p := range []*int{&l.cols, &l.rows} {
			if len(args) > 3+i {
				n, err := command.Int(args[3+i])
				if err != nil {
					return nil, rerr.ErrNotInteger
				}
				*p = int(min(max(n, 1), 256))
			}
		}
	}
	return l, nil
}

func (l lolwut) Run(c *command.Ctx) error {
	var b strings.Builder
	if l.art {
		r := rand.New(rand.NewPCG(uint64(l.cols), uint64(l.rows)))
		cells := []string{"▖", "▗", "▘", "▝", "▚", "▞", "▙", "▟", "▛", "▜"}
		for y := 0; y < l.rows; y++ {
			for x := 0; x < l.cols; x++ {
				if r.IntN(l.rows+1) < y { // more disorder further down
					b.WriteString(cells[r.IntN(len(cells))])
				} else {
					b.WriteString("█")
				}
			}
			b.WriteByte('\n')
		}
		b.WriteString("\nA wall coming apart, row by row. ")
	}
	b.WriteString("Redis ver. " + c.Server.Status.Stats().Version + "\n")
	c.W.Verbatim(b.String())
	return nil
}
