package rigid2d

// FreeFlight advances (q0, v0) by one unconstrained step of length h and
// writes the result into (q1, v1). The only force is gravity, F = m g on
// the centre (no torque), so ω is constant; the arithmetic follows SCISim's
// rigidbody2d VerletMap and SymplecticEulerMap:
//
//	Verlet:           v½ = v₀ + (h/2·m⁻¹)(m g);  q₁ = q₀ + h v½;  v₁ = v½ + (h/2·m⁻¹)(m g)
//	symplectic Euler: v₁ = v₀ + (h·m⁻¹)(m g);    q₁ = q₀ + h v₁
//
// Fixed (kinematic) bodies feel no force: v₁ = v₀ and q₁ = q₀ + h v₀.
// q1 may alias q0 and v1 may alias v0.
func (s *System) FreeFlight(q0, v0 []float64, h float64, q1, v1 []float64) {
	g := s.Gravity
	half := 0.5 * h
	for i := range s.Shapes {
		a, b, c := 3*i, 3*i+1, 3*i+2
		if s.Fixed[i] {
			v1[a], v1[b], v1[c] = v0[a], v0[b], v0[c]
			q1[a], q1[b], q1[c] = q0[a]+h*v0[a], q0[b]+h*v0[b], q0[c]+h*v0[c]
			continue
		}
		m := s.M[i]
		minv := 1.0 / m
		fx, fy := m*g[0], m*g[1]
		w := v0[c]
		if s.Integrator == SymplecticEuler {
			k := h * minv
			vx, vy := v0[a]+k*fx, v0[b]+k*fy
			q1[a], q1[b], q1[c] = q0[a]+h*vx, q0[b]+h*vy, q0[c]+h*w
			v1[a], v1[b], v1[c] = vx, vy, w
			continue
		}
		k := half * minv
		vx, vy := v0[a]+k*fx, v0[b]+k*fy
		q1[a], q1[b], q1[c] = q0[a]+h*vx, q0[b]+h*vy, q0[c]+h*w
		v1[a], v1[b], v1[c] = vx+k*fx, vy+k*fy, w
	}
}

// StartStep sets the portals' Lees–Edwards offsets for the step ending at
// time t (sim.StepStarter).
func (s *System) StartStep(t float64) {
	for i := range s.Portals {
		s.Portals[i].Update(t)
	}
}

// AfterStep applies the periodic boundaries at the end of a step, as
// SCISim's enforcePeriodicBoundaryConditions: portal by portal, every body
// whose centre lies behind plane A is moved through A to its image in front
// of B (and behind B through B), keeping its angle and velocity; a
// Lees–Edwards portal adds its shear velocity −v T of the plane crossed.
func (s *System) AfterStep(q, v []float64) {
	for pi := range s.Portals {
		po := &s.Portals[pi]
		for i := range s.Shapes {
			out, kick, crossed := po.Cross([2]float64{q[3*i], q[3*i+1]})
			if !crossed {
				continue
			}
			q[3*i], q[3*i+1] = out[0], out[1]
			if po.LeesEdwards() {
				v[3*i] += kick[0]
				v[3*i+1] += kick[1]
			}
		}
	}
}

// UpdateConfiguration writes q1 = q0 + h v for every body, angle included
// (SCISim's linearInertialConfigurationUpdate; sim.ConfigurationUpdater,
// which the stabilized staggering ends its steps with). Kinematic bodies
// move with their velocity like the others.
func (s *System) UpdateConfiguration(q0, v []float64, h float64, q1 []float64) {
	for k := range q0 {
		q1[k] = q0[k] + h*v[k]
	}
}
