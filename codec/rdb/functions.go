package rdb

import "errors"

// FUNCTION DUMP and RESTORE exchange function libraries in Redis 7.0's
// payload: each library as RDB_OPCODE_FUNCTION2 and its code as an RDB
// string (Redis compresses long ones with LZF, which Decode reads), then
// the footer of every DUMP payload (RDB version, CRC-64).

// RDB opcodes of function libraries: Redis 7.0's, and its release
// candidates' (which it refuses).
const (
	OpFunction2     = 245
	OpFunctionPreGA = 246
)

// Errors of a function payload's body, with Redis's texts.
var (
	ErrNotFunction   = errors.New("given type is not a function")
	ErrFunctionPreGA = errors.New("Pre-GA function format not supported")
)

// DumpFunctions returns FUNCTION DUMP's payload for the libraries' codes.
func DumpFunctions(codes [][]byte) []byte {
	var body []byte
	for _, code := range codes {
		body = appendString(append(body, OpFunction2), code)
	}
	return Seal(body)
}

// DecodeFunctions returns the library codes of a verified FUNCTION DUMP
// body: ErrFunctionPreGA or ErrNotFunction for another opcode, ErrFormat
// for a string that does not decode.
func DecodeFunctions(body []byte) ([][]byte, error) {
	r := &reader{b: body}
	var codes [][]byte
	for len(r.b) > 0 {
		t, _ := r.byte()
		switch t {
		case OpFunction2:
		case OpFunctionPreGA:
			return nil, ErrFunctionPreGA
		default:
			return nil, ErrNotFunction
		}
		code, err := r.library()
		if err != nil {
			return nil, err
		}
		codes = append(codes, code)
	}
	return codes, nil
}

// library reads the code of a function library, after its opcode.
func (r *reader) library() ([]byte, error) {
	code, err := r.str()
	if err != nil || len(code) > maxString {
		return nil, ErrFormat
	}
	return code, nil
}
