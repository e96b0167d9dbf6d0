package spheres

import (
	"fmt"
	"math"
)

// Periodic makes the horizontal directions periodic: direction d (0: x,
// 1: y) with L[d] > 0 wraps the interval [Lo[d], Lo[d] + L[d]), so a sphere
// leaving through one side comes back through the other with its velocity
// and spin, and spheres near opposite sides touch through the side. L[d] =
// 0 leaves direction d open. The vibrated layers of Bizon et al. (issue 16)
// use both.
//
// Contacts use the nearest image (minimum image convention: a pair's
// separation along d is reduced to (−L/2, L/2]), so a period must exceed
// twice the reach of a contact; the broad phase divides each period into
// whole cells no smaller than 2 r_max plus the step's reach and wraps its
// neighbour stencil, and a step refuses a period shorter than three such
// cells. Centres are kept in [Lo, Lo + L) (wrapped before the broad phase
// and after every step), so output files hold positions inside the periodic
// cell; walls are not repeated and should not cross a periodic side (the
// floor and lid of a layer are horizontal planes).
type Periodic struct {
	Lo, L [2]float64
}

// period returns the period of direction d (0 when open).
func (s *System) period(d int) float64 {
	if d > 1 {
		return 0
	}
	return s.Periodic.L[d]
}

// checkPeriodic validates the periodic sides.
func (s *System) checkPeriodic() error {
	for d := 0; d < 2; d++ {
		l, lo := s.Periodic.L[d], s.Periodic.Lo[d]
		if !(l >= 0) || math.IsInf(l, 0) || math.IsNaN(lo) || math.IsInf(lo, 0) {
			return fmt.Errorf("spheres: periodic side %c: origin %v and length %v, want finite and length ≥ 0", 'x'+d, lo, l)
		}
	}
	return nil
}

// wrapPeriodic moves every centre into the periodic cell.
func (s *System) wrapPeriodic() {
	for d := 0; d < 2; d++ {
		l := s.period(d)
		if l == 0 {
			continue
		}
		lo := s.Periodic.Lo[d]
		for i := range s.R {
			x := &s.X[3*i+d]
			if *x < lo || *x >= lo+l {
				*x -= l * math.Floor((*x-lo)/l)
				if *x >= lo+l { // rounding of a value just below lo
					*x -= l
				}
			}
		}
	}
}
