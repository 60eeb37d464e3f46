package server

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/resp"
)

// Databases is the number of logical databases (SELECT 0..15).
const Databases = store.Databases

// SELECT index
type selectDB struct{ db int }

func parseSelect(args [][]byte) (command.Runner, error) {
	n, ok := resp.ParseInt(args[1])
	if !ok || n < -1<<31 || n > 1<<31-1 {
		return nil, rerr.ErrNotInteger
	}
	return selectDB{int(n)}, nil
}

func (s selectDB) Run(c *command.Ctx) error {
	if c.ClusterMode() && s.db != 0 {
		return rerr.ErrSelectInCluster
	}
	if s.db < 0 || s.db >= Databases {
		return rerr.ErrDBIndex
	}
	c.Client.Conn.SetDB(command.InNamespace(c.Client.Conn.DB(), s.db))
	c.W.OK()
	return nil
}
