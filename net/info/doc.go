// Package info assembles the sections of INFO that the network layer
// answers (server, clients, memory, persistence, stats, replication's
// caller-given lines, cpu, errorstats, commandstats, latencystats,
// cluster) from figures its caller gathers, and keeps the
// instantaneous-rate meter. Field names and order are Redis 7.0's.
//
// Invariants: a section function only formats what it is given plus
// what the process itself reports (the Go runtime's memory, /proc,
// getrusage); it holds no server state and takes no lock, so INFO's
// content is decided by the caller's figures and Redis's field order
// lives in one place. Figures of machinery rekv does not have (RDB/AOF,
// forks, defrag, eviction) are the values Redis shows without it.
package info
