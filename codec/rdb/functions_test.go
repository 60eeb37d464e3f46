package rdb

import (
	"bytes"
	"errors"
	"testing"
)

func TestFunctionsPayload(t *testing.T) {
	codes := [][]byte{[]byte("#!lua name=a\nredis.register_function('f', function() return 1 end)"), []byte("12"), bytes.Repeat([]byte("x"), 70000)}
	body, err := Verify(DumpFunctions(codes))
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeFunctions(body)
	if err != nil || len(got) != len(codes) {
		t.Fatalf("decoded %d codes, %v", len(got), err)
	}
	for i := range codes {
		if !bytes.Equal(got[i], codes[i]) {
			t.Errorf("code %d differs", i)
		}
	}
	for _, tc := range []struct {
		body []byte
		want error
	}{
		{[]byte{TypeString, 1, 'x'}, ErrNotFunction},
		{[]byte{OpFunctionPreGA, 1, 'x'}, ErrFunctionPreGA},
		{[]byte{OpFunction2, 5, 'x'}, ErrFormat},
		{[]byte{OpFunction2}, ErrFormat},
	} {
		if _, err := DecodeFunctions(tc.body); !errors.Is(err, tc.want) {
			t.Errorf("%q: %v, want %v", tc.body, err, tc.want)
		}
	}
	if got, err := DecodeFunctions(nil); err != nil || len(got) != 0 {
		t.Errorf("empty payload: %v %v", got, err)
	}
}
