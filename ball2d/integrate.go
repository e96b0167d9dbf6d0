package ball2d

// FreeFlight advances (q0, v0) by one unconstrained step of length h with the
// system's integrator and writes the result into (q1, v1) (Alg. 4, lines 1
// and 8). The only force is gravity, m·g, so a(q) = M⁻¹ m g; the arithmetic
// follows SCISim's VerletMap / SymplecticEulerMap operation for operation:
//
//	Verlet:           v½ = v₀ + (h/2·m⁻¹)(m g);  q₁ = q₀ + h v½;  v₁ = v½ + (h/2·m⁻¹)(m g)
//	SymplecticEuler:  v₁ = v₀ + (h·m⁻¹)(m g);    q₁ = q₀ + h v₁
//
// Fixed balls never move: q₁ = q₀ and v₁ = 0 for them. q1 may alias q0 and
// v1 may alias v0.
func (s *System) FreeFlight(q0, v0 []float64, h float64, q1, v1 []float64) {
	f := &s.ff
	if f.self != f { // first call, or the System was copied
		f.self, f.run = f, f.chunk
	}
	f.s, f.q0, f.v0, f.h, f.q1, f.v1 = s, q0, v0, h, q1, v1
	s.det.g.pool.For(len(s.M), parGrain, f.run)
	f.s, f.q0, f.v0, f.q1, f.v1 = nil, nil, nil, nil, nil
}

// freeFlight holds the arguments of a parallel FreeFlight.
type freeFlight struct {
	s              *System
	q0, v0, q1, v1 []float64
	h              float64
	run            func(w, lo, hi int)
	self           *freeFlight
}

func (f *freeFlight) chunk(w, lo, hi int) {
	s, q0, v0, q1, v1, h := f.s, f.q0, f.v0, f.q1, f.v1, f.h
	g := s.Gravity
	half := 0.5 * h
	for i := lo; i < hi; i++ {
		m := s.M[i]
		a, b := 2*i, 2*i+1
		if s.Fixed[i] {
			q1[a], q1[b] = q0[a], q0[b]
			v1[a], v1[b] = 0, 0
			continue
		}
		minv := 1.0 / m
		fx, fy := m*g[0], m*g[1]
		switch s.Integrator {
		case SymplecticEuler:
			k := h * minv
			vx, vy := v0[a]+k*fx, v0[b]+k*fy
			q1[a], q1[b] = q0[a]+h*vx, q0[b]+h*vy
			v1[a], v1[b] = vx, vy
		default: // Verlet
			k := half * minv
			vx, vy := v0[a]+k*fx, v0[b]+k*fy
			q1[a], q1[b] = q0[a]+h*vx, q0[b]+h*vy
			v1[a], v1[b] = vx+k*fx, vy+k*fy
		}
	}
}

// AfterStep applies the periodic boundaries at the end of a step, as SCISim's
// enforcePeriodicBoundaryConditions: for each portal in order, every free
// ball whose centre lies behind plane A (n_A·(x − P_A) < 0) is teleported
// through A to the far side of B, and one behind B through B. Velocities are
// unchanged, except that a Lees–Edwards portal adds its shear velocity −v T
// of the plane crossed.
func (s *System) AfterStep(q, v []float64) {
	for pi := range s.Portals {
		po := &s.Portals[pi]
		for i := range s.M {
			if s.Fixed[i] {
				continue
			}
			out, kick, crossed := po.Cross([2]float64{q[2*i], q[2*i+1]})
			if !crossed {
				continue
			}
			q[2*i], q[2*i+1] = out[0], out[1]
			if po.LeesEdwards() {
				v[2*i] += kick[0]
				v[2*i+1] += kick[1]
			}
		}
	}
}

// touches reports n·(x − P) ≤ r (SCISim's distanceLessThanOrEqualZero).
func touches(pl *Plane, x [2]float64, r float64) bool {
	return pl.N[0]*(x[0]-pl.P[0])+pl.N[1]*(x[1]-pl.P[1]) <= r
}

// StartStep sets the Lees–Edwards offsets of the portals for the step
// ending at time t (sim.StepStarter).
func (s *System) StartStep(t float64) {
	for i := range s.Portals {
		s.Portals[i].Update(t)
	}
}
