// Package rerr holds Redis's error replies as sentinel values, so every layer
// can return them and check them with errors.Is, and command.Reply can send
// them to the client byte for byte.
//
// Invariants:
//   - An Error's Msg is Redis's reply text exactly, without the leading
//     '-' and the CRLF; command.Reply writes it as it is.
//   - Sentinels are compared with errors.Is (pointer identity), never by
//     their text; errors made per call (Errorf, Misconf) are *Error too,
//     so they reach the client as they are, not as internal errors.
package rerr
