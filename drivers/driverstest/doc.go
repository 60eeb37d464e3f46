// Package driverstest is the conformance suite every drivers.Driver must pass.
// A driver's own test calls Run with a constructor of fresh, empty stores.
package driverstest
