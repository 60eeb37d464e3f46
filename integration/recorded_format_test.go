package integration

import (
	"testing"
)

// TestRecordedRoundTrip checks the script format gives back every reply
// byte for byte, whatever bytes it holds.
func TestRecordedRoundTrip(t *testing.T) {
	cases := []recordedCase{
		{comments: []string{"# a comment"}, cmd: "SET k v", resp2: "+OK\r\n", resp3: "+OK\r\n"},
		{cmd: "GET k", resp2: "$0\r\n\r\n", resp3: "$0\r\n\r\n"},
		{cmd: "GET bin", resp2: "$6\r\n\x00\xff\r\n--\r\n", resp3: "$6\r\n\x00\xff\r\n--\r\n"},
		{cmd: "GET sep", resp2: "$4\r\n----\r\n", resp3: "$4\r\n----\r\n"},
		{cmd: "GET quoted", resp2: "$3\r\n\"a\"\r\n", resp3: "$3\r\n\"a\"\r\n"},
		{cmd: "GET lf", resp2: "$3\r\na\nb\r\n", resp3: "$3\r\na\nb\r\n"},
		{cmd: "~ HGETALL h", resp2: "*2\r\n$1\r\nf\r\n$1\r\nv\r\n", resp3: "%1\r\n$1\r\nf\r\n$1\r\nv\r\n"},
		{cmd: "PING", resp2: "+PONG\r\n", resp3: "+PONG\r\n"},
	}
	text := formatRecorded(cases)
	got, err := parseRecorded(text)
	if err != nil {
		t.Fatalf("%v in:\n%s", err, text)
	}
	if len(got) != len(cases) {
		t.Fatalf("read %d cases of %d from:\n%s", len(got), len(cases), text)
	}
	for i, c := range cases {
		g := got[i]
		if g.cmd != c.cmd || g.resp2 != c.resp2 || g.resp3 != c.resp3 || len(g.comments) != len(c.comments) {
			t.Errorf("case %d: got %+v, want %+v", i, g, c)
		}
	}
	if formatRecorded(got) != text {
		t.Error("formatting what was read changes the file")
	}
	// A script of bare commands (not yet recorded) reads as cases with no
	// replies.
	bare, err := parseRecorded("# c\nSET a 1\n\nGET a\n")
	if err != nil || len(bare) != 2 || bare[0].resp2 != "" || bare[1].cmd != "GET a" || bare[0].comments[0] != "# c" {
		t.Fatalf("bare script: %+v %v", bare, err)
	}
}
