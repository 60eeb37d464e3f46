package command

// StreamNodeLimits returns stream-node-max-entries and
// stream-node-max-bytes: Redis's defaults where there is no server (a
// replica's applier, the GC, a command table test).
func (c *Ctx) StreamNodeLimits() (entries, bytes int64) {
	if c.Server.Config == nil {
		return 100, 4096
	}
	return c.Server.Config.StreamNodeLimits()
}

// IntsetMax is set-max-intset-entries (Redis's default without a server).
func (c *Ctx) IntsetMax() int64 {
	if c.Server.Config == nil {
		return 512
	}
	return c.Server.Config.IntsetMax()
}

// Ints replies vals: the one integer, or with array an array of them
// (the single and multi forms of BF.EXISTS, CF.ADD, CMS.QUERY...).
func (c *Ctx) Ints(vals []int64, array bool) {
	if !array {
		c.W.Int(vals[0])
		return
	}
	c.W.Array(len(vals))
	for _, v := range vals {
		c.W.Int(v)
	}
}
