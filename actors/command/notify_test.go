package command

import (
	"testing"

	"github.com/rekv/rekv/actors/store"
)

// The store notes "new" with a class number of its own, since it cannot
// import this package: it must be NotifyNew.
func TestStoreNewClassIsNotifyNew(t *testing.T) {
	if store.NoteNewClass != uint16(NotifyNew) {
		t.Fatalf("store.NoteNewClass = %#x, NotifyNew = %#x", store.NoteNewClass, uint16(NotifyNew))
	}
}
