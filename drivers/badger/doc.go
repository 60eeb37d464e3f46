// Package badger is the embedded drivers.Driver on Badger v4, rekv's default
// store.
//
// Invariants:
//   - Durability follows Options.Durability: "always" syncs every commit,
//     "everysec" syncs once a second from a background goroutine, "no" leaves
//     syncing to Badger and the OS.
//   - Versions are a hybrid clock (unix ms << 16 | counter). Before a version
//     above the persisted high-water mark is handed out, a new mark one second
//     ahead is written and synced, so versions never repeat across restarts,
//     even if the wall clock steps back.
package badger
