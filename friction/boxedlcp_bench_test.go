package friction_test

import (
	"math"
	"math/rand"
	"testing"

	"impactsim/friction"
	"impactsim/mech"
	"impactsim/par"
	"impactsim/spheres"
)

// spherePile is the instantaneous problem of a pile of nx·ny·nz unit
// spheres (diameter 1 mm, spacing 0.999 mm: every lattice neighbour in
// contact) on a floor rising at 0.3 m/s, falling at 0.5 m/s with random
// velocities and spins: one island of about 3·nx·ny·nz contacts with the
// shape of a sphere layer's landing (three columns per contact, rotation
// in the friction columns), exported by spheres.System.ExportProblem.
func spherePile(nx, ny, nz int, seed int64) *mech.Problem {
	rng := rand.New(rand.NewSource(seed))
	const d = 1e-3
	s := &spheres.System{Gravity: [3]float64{0, 0, -9.81}, Mu: 0.5}
	s.Planes = []spheres.Plane{{N: [3]float64{0, 0, 1}, V: [3]float64{0, 0, 0.3}}}
	for k := 0; k < nx*ny*nz; k++ {
		x, y, z := k%nx, (k/nx)%ny, k/(nx*ny)
		p := [3]float64{0.999 * d * float64(x), 0.999 * d * float64(y), 0.4995*d + 0.999*d*float64(z)}
		v := [3]float64{0.05 * rng.NormFloat64(), 0.05 * rng.NormFloat64(), -0.5 + 0.05*rng.NormFloat64()}
		w := [3]float64{50 * rng.NormFloat64(), 50 * rng.NormFloat64(), 50 * rng.NormFloat64()}
		s.Add(p, v, w, d/2, 2500)
	}
	if _, err := s.DetectImpact(2e-4); err != nil {
		panic(err)
	}
	var p mech.Problem
	s.ExportProblem(&p)
	for i := range p.CoR {
		p.CoR[i] = 0.7
	}
	return &p
}

// scaledPile is spherePile in package spheres' island coordinates: each
// sphere's angular velocity scaled to ω̂ = √(I/m)·ω, its moments divided
// by √(I/m), M⁻¹ the compact scalar blocks m⁻¹·I₆ (mech.BlockDiag's
// ShapeUniform) — the form whose boxed LCP is swept compact
// (friction.blcpCompact). The same problem in other coordinates: the
// same impulses up to rounding.
func scaledPile(nx, ny, nz int, seed int64) *mech.Problem {
	p := spherePile(nx, ny, nz, seed)
	nb := p.MInv.NumBlocks()
	sc := make([]float64, nb)
	im := make([]float64, nb)
	for b := range sc {
		im[b] = p.MInv.Entry(b, 0, 0)
		sc[b] = math.Sqrt(im[b] / p.MInv.Entry(b, 3, 3))
		for a := 3; a < 6; a++ {
			p.V[6*b+a] *= sc[b]
		}
	}
	for _, c := range []*mech.Cols{&p.G, &p.D} {
		for a, r := range c.Row {
			if r%6 >= 3 {
				c.Val[a] /= sc[r/6]
			}
		}
	}
	p.M.ShapeUniform(nb, 6)
	p.MInv.ShapeUniform(nb, 6)
	for b := range im {
		p.M.Data[b], p.MInv.Data[b] = 1/im[b], im[b]
	}
	return p
}

// BenchmarkBoxedLCPPile: one solve of the boxed LCP (qce, tolerance 1e-6,
// cap 1000 as bench patterns uses) on a 20×20×5 pile (2,000 spheres: the
// size of a landing island) and on a 3×3×2 pile (18 spheres: the islands
// of a layer stepped at h = 2·10⁻⁴, tens of contacts); sweeps/op reports
// the sweeps. The 20×20×5 pile is also solved colour by colour
// (ColourFrom 1) without a pool and on pools of 1 and 2 workers, and in
// the sphere path's coordinates (scaledPile), swept compact
// (friction.blcpCompact) and, for comparison, packed (-packed).
func BenchmarkBoxedLCPPile(b *testing.B) {
	for _, c := range []struct {
		name       string
		nx, ny, nz int
		colour     bool
		workers    int
		scaled     bool
		packed     bool
	}{{"20x20x5", 20, 20, 5, false, 0, false, false}, {"3x3x2", 3, 3, 2, false, 0, false, false},
		{"20x20x5-coloured", 20, 20, 5, true, 0, false, false}, {"20x20x5-coloured-w1", 20, 20, 5, true, 1, false, false}, {"20x20x5-coloured-w2", 20, 20, 5, true, 2, false, false},
		{"20x20x5-scaled", 20, 20, 5, false, 0, true, false}, {"20x20x5-scaled-packed", 20, 20, 5, false, 0, true, true},
		{"20x20x5-scaled-coloured-w1", 20, 20, 5, true, 1, true, false}, {"20x20x5-scaled-coloured-w1-packed", 20, 20, 5, true, 1, true, true}} {
		b.Run(c.name, func(b *testing.B) {
			p := spherePile(c.nx, c.ny, c.nz, 1)
			if c.scaled {
				p = scaledPile(c.nx, c.ny, c.nz, 1)
			}
			law := &friction.BoxedLCP{Normal: normalOp(b, "qce"), Tol: 1e-6, MaxIter: 1000}
			friction.SetPacked(law, c.packed)
			if c.colour {
				law.ColourFrom = 1
			}
			if c.workers > 0 {
				pool := par.New(c.workers)
				defer pool.Close()
				law.SetPool(pool)
			}
			lam, beta := make([]float64, p.NContacts()), make([]float64, p.D.NCols())
			var st mech.Stats
			for b.Loop() {
				var err error
				if st, err = law.Solve(p, lam, beta); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(st.Sweeps), "sweeps/op")
			b.ReportMetric(float64(p.NContacts()), "contacts")
			b.ReportMetric(float64(st.Capped), "capped")
		})
	}
}

// BenchmarkBoxedLCPStream reads an array once per op, four sums side by
// side (MB/s = the read bandwidth of one goroutine): at the size of the
// 60k landing's compact sweep (52,469 contacts × 288 bytes, the largest
// island of a 4-period run, at the record's size of the qcesweep session
// (168 bytes since qcespeed): the floor of a sweep is these bytes at this
// rate) and at 256 MiB (main memory).
func BenchmarkBoxedLCPStream(b *testing.B) {
	for _, c := range []struct {
		name  string
		bytes int
	}{{"landing-pack", 52469 * 288}, {"256MiB", 256 << 20}} {
		b.Run(c.name, func(b *testing.B) {
			a := make([]float64, c.bytes/8)
			for i := range a {
				a[i] = float64(i & 7)
			}
			b.SetBytes(int64(8 * len(a)))
			var s float64
			for b.Loop() {
				var s0, s1, s2, s3 float64
				for i := 0; i+4 <= len(a); i += 4 {
					s0 += a[i]
					s1 += a[i+1]
					s2 += a[i+2]
					s3 += a[i+3]
				}
				s += (s0 + s1) + (s2 + s3)
			}
			if s < 0 {
				b.Fatal(s)
			}
		})
	}
}
