//go:build !race

package rbloom_test

const raceEnabled = false
