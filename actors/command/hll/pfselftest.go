package hll

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rhll"
)

// PFSELFTEST: checks the HyperLogLog implementation (rhll.SelfTest over
// 1,000,000 elements, about 40 ms) and answers OK, or the failure as an
// error "ERR TESTFAILED ...", as Redis words it. It touches no key and
// runs on the connection's event loop.
type pfselftest struct{}

// selfTestElements is how many distinct elements the estimate is checked
// over (Redis uses 10,000,000; the checks are the same at each power of
// ten).
const selfTestElements = 1000000

func parsePFSelfTest([][]byte) (command.Runner, error) { return pfselftest{}, nil }

func (pfselftest) Run(c *command.Ctx) error {
	if err := rhll.SelfTest(selfTestElements); err != nil {
		return rerr.Errorf("ERR %s", err.Error())
	}
	c.W.OK()
	return nil
}
