package sim

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math"
	"strings"
	"testing"
)

func TestStateRoundTrip(t *testing.T) {
	a, _ := NewStepper(fall{g: 10}, reflect{}, 0.1, []float64{0, 0.05}, []float64{1, -1})
	for i := 0; i < 7; i++ {
		if err := a.Step(); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := a.WriteState(&buf, "fall"); err != nil {
		t.Fatal(err)
	}
	b, _ := NewStepper(fall{g: 10}, reflect{}, 0.1, []float64{0, 0}, []float64{0, 0})
	if err := b.ReadState(bytes.NewReader(buf.Bytes()), "fall"); err != nil {
		t.Fatal(err)
	}
	if b.N != 7 || b.T != a.T {
		t.Fatalf("steps %d t %v, want 7 and %v", b.N, b.T, a.T)
	}
	for i := 0; i < 5; i++ {
		if err := a.Step(); err != nil {
			t.Fatal(err)
		}
		if err := b.Step(); err != nil {
			t.Fatal(err)
		}
	}
	for i := range a.Q {
		if math.Float64bits(a.Q[i]) != math.Float64bits(b.Q[i]) || math.Float64bits(a.V[i]) != math.Float64bits(b.V[i]) {
			t.Fatalf("resumed run differs at %d: q %v/%v v %v/%v", i, a.Q[i], b.Q[i], a.V[i], b.V[i])
		}
	}
}

// seal appends the checksum to a version 3 state without one.
func seal(body []byte) []byte {
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], crc32.Checksum(body, castagnoli))
	return append(append([]byte(nil), body...), b[:]...)
}

func TestStateRejects(t *testing.T) {
	a, _ := NewStepper(fall{g: 10}, reflect{}, 0.1, []float64{0, 0.05}, []float64{1, -1})
	var buf bytes.Buffer
	if err := a.WriteState(&buf, "fall"); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	body := good[:len(good)-4] // without the checksum
	// The law keeps no warm start: the body ends in v and a zero length.
	endV := len(body) - 8
	nan := append([]byte(nil), body...)
	copy(nan[endV-8:], []byte{0, 0, 0, 0, 0, 0, 0xf8, 0x7f})
	long := append([]byte(nil), body...)
	copy(long[endV:], []byte{0, 0, 0, 0, 0, 0, 0, 0x7f})
	cases := []struct {
		name string
		data []byte
		tag  string
		h    float64
		law  string
		want string
	}{
		{"other scene", good, "rise", 0.1, "reflect", "written for scene"},
		{"other law", good, "fall", 0.1, "lcp", `written with the contact law "reflect", this run uses "lcp"`},
		{"other h", good, "fall", 0.1 * 2, "reflect", "h = 0.1"},
		{"truncated", seal(body[:endV-3]), "fall", 0.1, "reflect", "v[1]"},
		{"no warm start length", seal(body[:endV]), "fall", 0.1, "reflect", "warm start length"},
		{"huge warm start", seal(long), "fall", 0.1, "reflect", "warm start: unexpected EOF"},
		{"trailing", seal(append(append([]byte(nil), body...), 0)), "fall", 0.1, "reflect", "data after"},
		{"not a state", []byte("<scene/>"), "fall", 0.1, "reflect", "not an impactsim state file"},
		{"nan", seal(nan), "fall", 0.1, "reflect", "finite"},
		{"no checksum", body, "fall", 0.1, "reflect", "checksum mismatch"},
	}
	for _, c := range cases {
		b, _ := NewStepper(fall{g: 10}, namedLaw{reflect{}, c.law}, c.h, []float64{3, 4}, []float64{5, 6})
		err := b.ReadState(bytes.NewReader(c.data), c.tag)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
		if b.Q[0] != 3 || b.V[1] != 6 || b.N != 0 {
			t.Errorf("%s: the stepper changed on a rejected state", c.name)
		}
	}
}

// namedLaw is a law under another name.
type namedLaw struct {
	ContactLaw
	name string
}

func (l namedLaw) Name() string { return l.name }

// TestStateChecksum: every single flipped bit of a state file is refused
// as a damaged file (before the run the issue saw, which resumed silently
// on another trajectory).
func TestStateChecksum(t *testing.T) {
	a, _ := NewStepper(fall{g: 10}, reflect{}, 0.1, []float64{0, 0.05}, []float64{1, -1})
	for i := 0; i < 3; i++ {
		a.Step()
	}
	var buf bytes.Buffer
	if err := a.WriteState(&buf, "fall"); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	for i := len(stateMagic); i < len(good); i++ {
		for bit := 0; bit < 8; bit++ {
			bad := append([]byte(nil), good...)
			bad[i] ^= 1 << bit
			b, _ := NewStepper(fall{g: 10}, reflect{}, 0.1, []float64{3, 4}, []float64{5, 6})
			if err := b.ReadState(bytes.NewReader(bad), "fall"); err == nil || !strings.Contains(err.Error(), "checksum mismatch") {
				t.Fatalf("byte %d bit %d flipped: %v", i, bit, err)
			}
		}
	}
}

// TestStateOlderVersions: files of the first format (no warm start
// section) and of the second (no law, no checksum) are still read.
func TestStateOlderVersions(t *testing.T) {
	a, _ := NewStepper(fall{g: 10}, reflect{}, 0.1, []float64{0, 0.05}, []float64{1, -1})
	a.Step()
	var buf bytes.Buffer
	if err := a.WriteState(&buf, "fall"); err != nil {
		t.Fatal(err)
	}
	v3 := buf.Bytes()
	tagEnd := len(stateMagic) + 4 + len("fall")
	lawEnd := tagEnd + 4 + len("reflect")
	rest := v3[lawEnd : len(v3)-4] // header, q, v, warm start length
	v2 := append(append([]byte(stateMagicV2), v3[len(stateMagic):tagEnd]...), rest...)
	v1 := append(append([]byte(stateMagicV1), v3[len(stateMagic):tagEnd]...), rest[:len(rest)-8]...)
	for name, data := range map[string][]byte{"v1": v1, "v2": v2} {
		b, _ := NewStepper(fall{g: 10}, reflect{}, 0.1, []float64{3, 4}, []float64{5, 6})
		if err := b.ReadState(bytes.NewReader(data), "fall"); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b.N != 1 || b.Q[1] != a.Q[1] || b.V[1] != a.V[1] {
			t.Errorf("%s file read as N %d q %v v %v, want %d %v %v", name, b.N, b.Q, b.V, a.N, a.Q, a.V)
		}
	}
}

// FuzzReadState: no input panics or changes the stepper unless accepted.
func FuzzReadState(f *testing.F) {
	a, _ := NewStepper(fall{g: 10}, reflect{}, 0.1, []float64{0, 0.05}, []float64{1, -1})
	var buf bytes.Buffer
	a.WriteState(&buf, "fall")
	f.Add(buf.Bytes())
	f.Add([]byte(stateMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, _ := NewStepper(fall{g: 10}, reflect{}, 0.1, []float64{3, 4}, []float64{5, 6})
		if err := b.ReadState(bytes.NewReader(data), "fall"); err != nil {
			if b.Q[0] != 3 || b.Q[1] != 4 || b.V[0] != 5 || b.V[1] != 6 || b.N != 0 {
				t.Fatal("rejected state changed the stepper")
			}
		}
	})
}
