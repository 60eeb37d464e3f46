//go:build race

package rbloom_test

// raceEnabled: under the race detector the false-positive test probes
// fewer items (it is ten times slower); REKVTEST_BLOOM_ITEMS still rules.
const raceEnabled = true
