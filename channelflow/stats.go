package channelflow

import (
	"math"

	"impactsim/output"
	"impactsim/spheres"
)

// Sample is the state of the flow at one sampling step.
type Sample struct {
	Step            int
	Time            float64
	Particles       int
	Contacts, Pairs int
	Iterations      int
	Residual        float64
	Kinetic         float64
}

// Stats accumulates Table 2's statistics: samples every SampleEvery steps
// (particles, contacts) and the largest penetrations over every step.
type Stats struct {
	Samples []Sample
	// MaxPenetration is the largest overlap of two spheres over all steps
	// (at the start of a step), MaxWallPenetration that of a sphere and a
	// wall.
	MaxPenetration, MaxWallPenetration float64
	// Steps counts the steps since the statistics started (New, or
	// ReadState: a resumed flow starts them afresh), CappedSteps those
	// whose sweeps stopped at their cap.
	Steps, CappedSteps int
	Iterations         int // sweeps over those steps
}

func (s *Stats) reset() { *s = Stats{} }

func (s *Stats) add(f *Flow, st *spheres.StepStats) error {
	s.MaxPenetration = math.Max(s.MaxPenetration, st.MaxPenetration)
	s.MaxWallPenetration = math.Max(s.MaxWallPenetration, st.MaxWallPenetration)
	s.Steps++
	s.Iterations += st.Law.Iterations
	if st.Law.Capped > 0 {
		s.CappedSteps++
	}
	if f.Steps%f.Cfg.SampleEvery == 0 {
		ke, err := f.kinetic()
		if err != nil {
			return err
		}
		s.Samples = append(s.Samples, Sample{Step: f.Steps, Time: float64(f.Steps) * f.Cfg.H, Particles: f.N(),
			Contacts: st.Contacts, Pairs: st.PairContacts, Iterations: st.Law.Iterations, Residual: st.Law.Residual,
			Kinetic: ke})
	}
	return nil
}

// Table2 holds the key figures of Preclik et al.'s Table 2.
type Table2 struct {
	AvgParticles        float64 `json:"avg_particles"`
	SolidFraction       float64 `json:"solid_fraction"`
	AvgContacts         float64 `json:"avg_contacts"`
	AvgPairContacts     float64 `json:"avg_sphere_pair_contacts"`
	ContactsPerParticle float64 `json:"contacts_per_particle"`
	MaxPenetration      float64 `json:"max_penetration_m"`
	MaxPenetrationRel   float64 `json:"max_penetration_of_radius"`
	MaxWallPenetration  float64 `json:"max_wall_penetration_m"`
	PeakCellSpeed       float64 `json:"peak_cell_speed"`
	Samples             int     `json:"samples"`
	Steps               int     `json:"steps"`
	CappedSteps         int     `json:"capped_steps"`
	MeanSweeps          float64 `json:"mean_sweeps"`
}

// Table2 returns the statistics averaged over the samples whose step is at
// least from (to leave out the filling transient), and the peak cell speed
// of the final state's speed map. The solid fraction is the spheres'
// volume over the free volume of the channel (minus the obstacle); contacts
// per particle count each contact for both its spheres, 2·contacts/particles
// (the paper's 2.59 = 2 × 3.20/2.47).
func (f *Flow) Table2(from int) Table2 {
	c := &f.Cfg
	var t Table2
	n := 0
	for _, s := range f.Stats.Samples {
		if s.Step < from {
			continue
		}
		t.AvgParticles += float64(s.Particles)
		t.AvgContacts += float64(s.Contacts)
		t.AvgPairContacts += float64(s.Pairs)
		n++
	}
	if n > 0 {
		t.AvgParticles /= float64(n)
		t.AvgContacts /= float64(n)
		t.AvgPairContacts /= float64(n)
		t.ContactsPerParticle = 2 * t.AvgContacts / t.AvgParticles
	}
	free := c.Length*c.Width*c.Height - c.Obstacle.Volume(c.Height)
	t.SolidFraction = t.AvgParticles * 4 / 3 * math.Pi * c.Radius * c.Radius * c.Radius / free
	t.MaxPenetration = f.Stats.MaxPenetration
	t.MaxPenetrationRel = f.Stats.MaxPenetration / c.Radius
	t.MaxWallPenetration = f.Stats.MaxWallPenetration
	speed, _ := f.Maps()
	for _, v := range speed.Data {
		if !math.IsNaN(v) {
			t.PeakCellSpeed = math.Max(t.PeakCellSpeed, v)
		}
	}
	t.Samples, t.Steps, t.CappedSteps = n, f.Steps, f.Stats.CappedSteps
	if f.Stats.Steps > 0 {
		t.MeanSweeps = float64(f.Stats.Iterations) / float64(f.Stats.Steps)
	}
	return t
}

// Maps returns the mean speed |v| (m/s) and mean angular speed |ω|
// (rad/ms) of the spheres whose centres lie in each Cell × Cell column of
// the x–y plane (z ignored; Figs. 8 and 9), over [0, Length] × [0, Width];
// empty cells are NaN.
func (f *Flow) Maps() (speed, omega *output.Heatmap) {
	c := &f.Cfg
	nx, ny := int(math.Round(c.Length/c.Cell)), int(math.Round(c.Width/c.Cell))
	nx, ny = max(nx, 1), max(ny, 1)
	speed = &output.Heatmap{NX: nx, NY: ny, Data: make([]float64, nx*ny), X1: c.Length, Y1: c.Width}
	omega = &output.Heatmap{NX: nx, NY: ny, Data: make([]float64, nx*ny), X1: c.Length, Y1: c.Width}
	count := make([]int, nx*ny)
	s := f.Sys
	for i := 0; i < s.N(); i++ {
		ix := int(s.X[3*i] / c.Length * float64(nx))
		iy := int(s.X[3*i+1] / c.Width * float64(ny))
		if ix < 0 || ix >= nx || iy < 0 || iy >= ny {
			continue
		}
		k := iy*nx + ix
		vw := s.VW[6*i : 6*i+6]
		speed.Data[k] += math.Sqrt(vw[0]*vw[0] + vw[1]*vw[1] + vw[2]*vw[2])
		omega.Data[k] += math.Sqrt(vw[3]*vw[3]+vw[4]*vw[4]+vw[5]*vw[5]) / 1000
		count[k]++
	}
	for k, n := range count {
		if n == 0 {
			speed.Data[k], omega.Data[k] = math.NaN(), math.NaN()
			continue
		}
		speed.Data[k] /= float64(n)
		omega.Data[k] /= float64(n)
	}
	return speed, omega
}

// RDF returns the radial distribution function of the spheres whose
// centres lie in RDFX0 ≤ x ≤ RDFX1 (all y, z), as the paper computes it:
// the histogram of the distances of all ordered pairs in the region, per
// bin divided by the number of spheres in the region and by the expected
// count 4πρ∫r²dr of an ideal gas of the overall number density ρ (spheres
// per free volume). r is returned in diameters d, bins of width d/binsPerD
// up to rmax·d.
func (f *Flow) RDF(rmax float64, binsPerD int) (r, g []float64) {
	c := &f.Cfg
	s := f.Sys
	d := 2 * c.Radius
	var idx []int
	for i := 0; i < s.N(); i++ {
		if x := s.X[3*i]; x >= c.RDFX0 && x <= c.RDFX1 {
			idx = append(idx, i)
		}
	}
	nb := int(rmax * float64(binsPerD))
	hist := make([]float64, nb)
	rm := rmax * d
	// cell list over the region
	cs := rm
	cell := func(p []float64) [3]int {
		return [3]int{int((p[0] - c.RDFX0) / cs), int(p[1] / cs), int(p[2] / cs)}
	}
	cells := map[[3]int][]int{}
	for _, i := range idx {
		k := cell(s.X[3*i : 3*i+3])
		cells[k] = append(cells[k], i)
	}
	for _, i := range idx {
		pi := s.X[3*i : 3*i+3]
		k := cell(pi)
		for dx := -1; dx <= 1; dx++ {
			for dy := -1; dy <= 1; dy++ {
				for dz := -1; dz <= 1; dz++ {
					for _, j := range cells[[3]int{k[0] + dx, k[1] + dy, k[2] + dz}] {
						if j == i {
							continue
						}
						pj := s.X[3*j : 3*j+3]
						dist := math.Sqrt((pi[0]-pj[0])*(pi[0]-pj[0]) + (pi[1]-pj[1])*(pi[1]-pj[1]) + (pi[2]-pj[2])*(pi[2]-pj[2]))
						if b := int(dist / d * float64(binsPerD)); b < nb {
							hist[b]++
						}
					}
				}
			}
		}
	}
	free := c.Length*c.Width*c.Height - c.Obstacle.Volume(c.Height)
	rho := float64(s.N()) / free
	r, g = make([]float64, nb), make([]float64, nb)
	for b := range hist {
		r0, r1 := float64(b)/float64(binsPerD)*d, float64(b+1)/float64(binsPerD)*d
		r[b] = (float64(b) + 0.5) / float64(binsPerD)
		if len(idx) > 0 {
			g[b] = hist[b] / float64(len(idx)) / (4.0 / 3 * math.Pi * rho * (r1*r1*r1 - r0*r0*r0))
		}
	}
	return r, g
}
