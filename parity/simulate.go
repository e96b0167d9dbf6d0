package parity

import (
	"fmt"

	"impactsim/rigid3d"
	"impactsim/scenario"
	"impactsim/scene"
	"impactsim/sim"
)

// Simulate runs the scene at path (a SCISim scene of the given system) for
// steps time steps with impactsim, mapping the scene's SCISim settings as
// the run command does (scenario package, default options), and returns
// the final state in SCISim's layout.
func Simulate(system, path string, steps int) (*State, error) {
	var (
		st    *sim.Stepper
		convQ func(q []float64) []float64
		convV func(v []float64) []float64
		dt    float64
	)
	switch system {
	case "ball2d":
		sc, err := scene.LoadBall2D(path)
		if err != nil {
			return nil, err
		}
		r, err := scenario.NewBall2D(sc, scenario.Options{})
		if err != nil {
			return nil, err
		}
		defer r.Close()
		st, dt = r.Stepper, sc.Integrator.Dt
		convQ = clone
		convV = clone
	case "rigidbody3d":
		sc, err := scene.LoadRigidBody3D(path)
		if err != nil {
			return nil, err
		}
		r, err := scenario.NewRigid3D(sc, scenario.Options{})
		if err != nil {
			return nil, err
		}
		st, dt = r.Stepper, sc.Integrator.Dt
		convQ = rigid3DQ
		convV = rigid3DV
	case "rigidbody2d":
		sc, err := scene.LoadRigidBody2D(path)
		if err != nil {
			return nil, err
		}
		r, err := scenario.NewRigid2D(sc, scenario.Options{})
		if err != nil {
			return nil, err
		}
		st, dt = r.Stepper, sc.Integrator.Dt
		convQ = clone // (x, y, θ) per body, as SCISim
		convV = clone
	default:
		return nil, fmt.Errorf("parity: system %q is not supported (ball2d, rigidbody2d, rigidbody3d)", system)
	}
	for st.N < steps {
		if err := st.Step(); err != nil {
			return nil, err
		}
	}
	return &State{System: system, Scene: path, Command: "impactsim (parity.Simulate)", End: float64(steps) * dt,
		Iteration: st.N, Time: st.T, Q: convQ(st.Q), V: convV(st.V)}, nil
}

func clone(x []float64) []float64 { return append([]float64(nil), x...) }

// rigid3DQ maps impactsim's (x, quaternion) per body to SCISim's
// (x₁ … x_N, R₁ … R_N) with row-major rotation matrices.
func rigid3DQ(q []float64) []float64 {
	n := len(q) / 7
	out := make([]float64, 12*n)
	for i := 0; i < n; i++ {
		x, o := rigid3d.Pose(q, i)
		out[3*i], out[3*i+1], out[3*i+2] = x.X, x.Y, x.Z
		r := o.Matrix()
		for a := 0; a < 3; a++ {
			for b := 0; b < 3; b++ {
				out[3*n+9*i+3*a+b] = r[a][b]
			}
		}
	}
	return out
}

// rigid3DV maps impactsim's (u, ω) per body to SCISim's
// (u₁ … u_N, ω₁ … ω_N).
func rigid3DV(v []float64) []float64 {
	n := len(v) / 6
	out := make([]float64, 6*n)
	for i := 0; i < n; i++ {
		u, w := rigid3d.Vel(v, i)
		out[3*i], out[3*i+1], out[3*i+2] = u.X, u.Y, u.Z
		out[3*n+3*i], out[3*n+3*i+1], out[3*n+3*i+2] = w.X, w.Y, w.Z
	}
	return out
}

// SceneDt returns the time step of the scene at path as impactsim reads it
// (0 if it cannot be read).
func SceneDt(system, path string) float64 {
	switch system {
	case "ball2d":
		if sc, err := scene.LoadBall2D(path); err == nil {
			return sc.Integrator.Dt
		}
	case "rigidbody3d":
		if sc, err := scene.LoadRigidBody3D(path); err == nil {
			return sc.Integrator.Dt
		}
	case "rigidbody2d":
		if sc, err := scene.LoadRigidBody2D(path); err == nil {
			return sc.Integrator.Dt
		}
	}
	return 0
}
