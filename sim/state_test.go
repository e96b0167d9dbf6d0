package sim

import (
	"bytes"
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

func TestStateRejects(t *testing.T) {
	a, _ := NewStepper(fall{g: 10}, reflect{}, 0.1, []float64{0, 0.05}, []float64{1, -1})
	var buf bytes.Buffer
	if err := a.WriteState(&buf, "fall"); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	// The law keeps no warm start: the file ends in v and a zero length.
	endV := len(good) - 8
	nan := append([]byte(nil), good...)
	copy(nan[endV-8:], []byte{0, 0, 0, 0, 0, 0, 0xf8, 0x7f})
	long := append([]byte(nil), good...)
	copy(long[endV:], []byte{0, 0, 0, 0, 0, 0, 0, 0x7f})
	cases := []struct {
		name string
		data []byte
		tag  string
		h    float64
		want string
	}{
		{"other scene", good, "rise", 0.1, "written for scene"},
		{"other h", good, "fall", 0.2, "h = 0.1"},
		{"truncated", good[:endV-3], "fall", 0.1, "v[1]"},
		{"no warm start length", good[:endV], "fall", 0.1, "warm start length"},
		{"huge warm start", long, "fall", 0.1, "warm start: unexpected EOF"},
		{"trailing", append(append([]byte(nil), good...), 0), "fall", 0.1, "data after"},
		{"not a state", []byte("<scene/>"), "fall", 0.1, "header"},
		{"nan", nan, "fall", 0.1, "finite"},
	}
	for _, c := range cases {
		b, _ := NewStepper(fall{g: 10}, reflect{}, c.h, []float64{3, 4}, []float64{5, 6})
		err := b.ReadState(bytes.NewReader(c.data), c.tag)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
		if b.Q[0] != 3 || b.V[1] != 6 || b.N != 0 {
			t.Errorf("%s: the stepper changed on a rejected state", c.name)
		}
	}
}

// TestStateVersion1: files of the first format (no warm start section)
// are still read.
func TestStateVersion1(t *testing.T) {
	a, _ := NewStepper(fall{g: 10}, reflect{}, 0.1, []float64{0, 0.05}, []float64{1, -1})
	a.Step()
	var buf bytes.Buffer
	if err := a.WriteState(&buf, "fall"); err != nil {
		t.Fatal(err)
	}
	v1 := append([]byte(stateMagicV1), buf.Bytes()[len(stateMagic):buf.Len()-8]...)
	b, _ := NewStepper(fall{g: 10}, reflect{}, 0.1, []float64{3, 4}, []float64{5, 6})
	if err := b.ReadState(bytes.NewReader(v1), "fall"); err != nil {
		t.Fatal(err)
	}
	if b.N != 1 || b.Q[1] != a.Q[1] || b.V[1] != a.V[1] {
		t.Errorf("version 1 file read as N %d q %v v %v, want %d %v %v", b.N, b.Q, b.V, a.N, a.Q, a.V)
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
