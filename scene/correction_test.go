package scene

import (
	"strings"
	"testing"
)

// TestReadPositionCorrectionMethod: <position_correction> names its method
// and ngs's sweep cap; bad values are FILE:LINE errors naming the
// attribute.
func TestReadPositionCorrectionMethod(t *testing.T) {
	read := func(body string) (*Ball2DScene, error) { return readOneBall(body, "c.xml") }
	s, err := read(`<position_correction method="ngs" max_sweeps="50" tol="1e-4"/>`)
	if err != nil {
		t.Fatal(err)
	}
	if c := s.Correction; c == nil || c.Method != "ngs" || c.MaxSweeps != 50 || c.Tol != 1e-4 || c.Line != 4 {
		t.Errorf("position_correction %+v, want ngs, 50 sweeps, tol 1e-4 on line 4", c)
	}
	if s, err = read(`<position_correction/>`); err != nil || s.Correction == nil || s.Correction.Method != "" || s.Correction.MaxSweeps != 0 {
		t.Errorf("<position_correction/>: %+v, %v", s.Correction, err)
	}
	if s, err = read(`<position_correction method="projection"/>`); err != nil || s.Correction.Method != "projection" {
		t.Errorf("method projection: %+v, %v", s.Correction, err)
	}
	for _, c := range []struct{ body, want string }{
		{`<position_correction method="gs"/>`, `c.xml:4: position_correction attribute "method"`},
		{`<position_correction max_sweeps="0"/>`, `c.xml:4: position_correction attribute "max_sweeps"`},
		{`<position_correction sweeps="2"/>`, `c.xml:4: position_correction: unsupported attribute "sweeps"`},
	} {
		if _, err := read(c.body); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.body, err, c.want)
		}
	}
}
