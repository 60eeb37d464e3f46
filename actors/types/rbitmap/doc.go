// Package rbitmap is the type-operations layer of Redis's bit commands on
// strings (store.Str): single bits, population counts and bit searches over
// ranges, bit fields, and bitwise operations across strings.
//
// Invariants:
//   - Bit 0 is the most significant bit of byte 0, as in Redis.
//   - Counting and searching read the range through store.Str.Each, one
//     chunk at a time, and skip pieces the store reports as zeros without
//     looking at their bytes: a count over a 512 MiB sparse bitmap costs
//     its stored chunks, not its length.
//   - Writes go through store.Str.Write, which touches only the chunks
//     covering the written bytes.
package rbitmap
