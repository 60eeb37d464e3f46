//go:build race

package integration

// raceEnabled: the tests run under the race detector, which slows the
// server several times and adds shadow memory to every byte it holds.
const raceEnabled = true
