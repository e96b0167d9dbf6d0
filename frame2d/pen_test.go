package frame2d

import (
	"math"
	"testing"
)

// worstPenetration returns the largest overlap of two bricks (or a brick
// and the ground) at the current positions.
func worstPenetration(f *Framework) float64 {
	worst := 0.0
	for a := range f.Bodies {
		if f.Ground {
			for _, p := range f.Bodies[a].Hull {
				worst = math.Max(worst, -f.Pos[p].Y)
			}
		}
		for b := 0; b < a; b++ {
			if s, _, _ := separation(f.Corners(a), f.Corners(b)); -s > worst {
				worst = -s
			}
		}
	}
	return worst
}

// TestTower5x5Collapse: 1,000 position steps of the 5×5 tower; bricks do
// not overlap by more than a small fraction of their size, and the bars
// keep their lengths.
func TestTower5x5Collapse(t *testing.T) {
	f, _ := Tower5x5().Framework()
	s, err := NewSim(f, 0.005)
	if err != nil {
		t.Fatal(err)
	}
	worst, worstLen := 0.0, 0.0
	for i := 0; i < 1000; i++ {
		if err := s.Step(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		worst = math.Max(worst, worstPenetration(f))
		worstLen = math.Max(worstLen, f.MaxLengthError())
	}
	t.Logf("5×5 tower, 1000 steps: max penetration %.3g (brick height 1), max relative bar length error %.3g", worst, worstLen)
	if worst > 1e-3 {
		t.Errorf("penetration %g", worst)
	}
	if worstLen > 1e-3 {
		t.Errorf("length error %g", worstLen)
	}
}
