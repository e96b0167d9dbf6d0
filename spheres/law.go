package spheres

import (
	"fmt"
	"math"
	"strings"
	"time"

	"impactsim/friction"
	"impactsim/impact"
	"impactsim/mech"
	"impactsim/scratch"
)

// Law is the contact law of the collision-integrator step (StepImpact): an
// impact operator of package impact (gr, grr, lcp, qce, qce_lcp, …) with
// Newton restitution CoR, optionally velocity dependent (V0 > 0:
// impact.VelocityRestitution, e(v) = 1 − (1 − e₀)(v/v₀)^{3/4} below v₀),
// followed by a friction law when the system's μ > 0:
//
//	"alg3"  maximal-dissipation friction (Alg. 3 of Smith et al.,
//	        friction.MaxDissipation), staggered after the impact (sim.Staggered)
//	"blcp"  the boxed LCP of Zhang et al. (friction.BoxedLCP) around the
//	        operator
//	"none"  no friction
//
// Every island of the contact graph gets its own solve (islands.go).
type Law struct {
	Operator string  // impact operator name (impact.Names)
	Friction string  // "alg3" (default when empty), "blcp" or "none"
	Solver   string  // QP solver ("" = auto)
	VTol     float64 // approach tolerance of the propagation operators (0: default)
	CoR      float64 // e₀ ∈ [0, 1]
	V0       float64 // velocity scale of e(v); 0: constant restitution
	// BoxedTol and BoxedMaxIter set friction.BoxedLCP's tolerance and cap
	// (0: its defaults).
	BoxedTol     float64
	BoxedMaxIter int
	// Beta0 is Walton's tangential restitution β₀ applied to Alg. 3's
	// friction impulses (friction.TangentialRestitution: a sticking
	// contact's tangential velocity reversed by β₀ instead of stopped,
	// within the Coulomb bound); 0: Alg. 3 as published.
	Beta0 float64
	// MatrixFreeFrom is Alg. 3's friction.MaxDissipation.MatrixFreeFrom:
	// the number of sliding directions of an island from which its QP's
	// matrix is given by the generic matrix-free form (from stored
	// directions) instead of the default assembly from the islands'
	// compact sphere directions (friction.SphereBasis, smaller and
	// faster); 0: never.
	MatrixFreeFrom int
}

// operatorConfig is the impact operator's configuration. QCE-LCP's LCP
// stage on the automatic solver solves islands above the dense size by
// MPRGP (pooled on the big island) instead of the interior point: at the
// 60k layer's landing (30 steps, islands up to 46k contacts, 1 worker) the
// normal solve took 0.156 s a step against the interior point's 0.426 s,
// at the same KKT tolerance (BENCHMARKS.md, qcefast).
//
// The other operators' LCPs (GR's reflections, LCP, GRR) go to MPRGP
// first above GRInteriorMax contacts, the interior point finishing only
// if MPRGP stops short (qp.Auto.InteriorMax).
func (l *Law) operatorConfig() impact.Config {
	c := impact.Config{Name: l.Operator, Solver: l.Solver, VTol: l.VTol, InteriorMax: GRInteriorMax}
	if l.Operator == "qce_lcp" {
		c.InteriorMin = -1
	}
	return c
}

// GRInteriorMax is the island size above which the sphere path's LCPs
// (GR's reflections above all) are solved by MPRGP before the interior
// point (impact.Config.InteriorMax). The sparse Cholesky factor of a
// layer's contact graph fills in: at the 60k layer's landing at h = 10⁻³,
// GR's first reflection covers the whole island, and on 24,724 / 40,646
// / 59,600 / 85,146 violators the interior point took 0.55 / 1.9 / 6.3 /
// 20.6 s (19–26 factorizations of 0.33–4.4 M entries) against MPRGP's
// 0.43 / 0.87 / 1.8 / 6.3 s (593–2,110 iterations), at the same KKT
// tolerance (BENCHMARKS.md, h1e3). At h ≤ 3·10⁻⁴ GR's islands stay below
// 1,000 violators, where nothing changes.
const GRInteriorMax = 20000

// Check validates the law's names and coefficients.
func (l *Law) Check() error {
	if _, err := impact.New(l.operatorConfig()); err != nil {
		return fmt.Errorf("spheres: %w", err)
	}
	switch l.friction() {
	case "alg3", "blcp", "none":
	default:
		return fmt.Errorf("spheres: unknown friction law %q (want alg3, blcp or none)", l.Friction)
	}
	if !(l.CoR >= 0 && l.CoR <= 1) {
		return fmt.Errorf("spheres: coefficient of restitution %v, want 0 ≤ c ≤ 1", l.CoR)
	}
	if !(l.Beta0 >= 0 && l.Beta0 <= 1) {
		return fmt.Errorf("spheres: tangential restitution β₀ = %v, want 0 ≤ β₀ ≤ 1", l.Beta0)
	}
	if l.MatrixFreeFrom < 0 {
		return fmt.Errorf("spheres: MatrixFreeFrom = %d, want ≥ 0", l.MatrixFreeFrom)
	}
	if l.Beta0 > 0 && l.friction() != "alg3" {
		return fmt.Errorf("spheres: tangential restitution β₀ = %v needs the alg3 friction law, not %q", l.Beta0, l.friction())
	}
	if l.V0 < 0 || math.IsNaN(l.V0) || math.IsInf(l.V0, 0) {
		return fmt.Errorf("spheres: restitution velocity scale v₀ = %v, want 0 (constant) or a positive finite speed", l.V0)
	}
	return nil
}

// Warning returns the one-line warning about the law ("" if none): qce
// with restitution below 1 ignores it (impact.RestitutionWarning).
func (l *Law) Warning() string {
	return impact.RestitutionWarning(l.Operator, l.CoR, l.V0 > 0)
}

func (l *Law) friction() string {
	if l.Friction == "" {
		return "alg3"
	}
	return strings.ToLower(l.Friction)
}

// Name returns the law's name as the general path's laws spell it
// ("gr+mdp", "qce_lcp+blcp", "gr").
func (l Law) Name() string {
	switch l.friction() {
	case "alg3":
		if l.Beta0 > 0 {
			return fmt.Sprintf("%s+mdp(β₀=%g)", l.Operator, l.Beta0)
		}
		return l.Operator + "+mdp"
	case "blcp":
		return l.Operator + "+blcp"
	}
	return l.Operator
}

// timedOperator measures the time its impact operator spends, so that a
// coupled law's time can be split into impact and friction.
type timedOperator struct {
	impact.Operator
	spent time.Duration
}

func (o *timedOperator) Resolve(p *mech.Problem, lambda []float64) (mech.Stats, error) {
	t := time.Now()
	st, err := o.Operator.Resolve(p, lambda)
	o.spent += time.Since(t)
	return st, err
}

// lawInstance is one worker's copy of the law (operators keep workspaces
// and are not safe for concurrent use).
type lawInstance struct {
	op    *timedOperator
	inner impact.Operator
	fr    friction.Operator
	mdp   *friction.MaxDissipation // fr when it is Alg. 3
	vk    impact.VelocityKeeper    // inner when it keeps ṽ (GR), for mdp
	blcp  *friction.BoxedLCP
	vr    impact.VelocityRestitution
	beta0 float64
	keepV bool // tests: GR's ṽ is not lent to Alg. 3's QP solve
	// arena, when set, is storage dead while this instance solves (the
	// step's workspace.scr, for the pooled instance that solves the big
	// islands one at a time), lent to GR (GR.LendArena), then to Alg. 3
	// (MaxDissipation.LendArena)
	arena *scratch.Arena
}

func (l *Law) instance(mu float64) (*lawInstance, error) {
	op, err := impact.New(l.operatorConfig())
	if err != nil {
		return nil, fmt.Errorf("spheres: %w", err)
	}
	li := &lawInstance{op: &timedOperator{Operator: op}, inner: op, vr: impact.VelocityRestitution{V0: l.V0}, beta0: l.Beta0}
	if mu > 0 {
		switch l.friction() {
		case "alg3":
			fr, err := friction.NewMaxDissipation(l.Solver)
			if err != nil {
				return nil, fmt.Errorf("spheres: %w", err)
			}
			fr.MatrixFreeFrom = l.MatrixFreeFrom
			li.fr, li.mdp = fr, fr
			li.vk, _ = op.(impact.VelocityKeeper)
		case "blcp":
			li.blcp = &friction.BoxedLCP{Normal: li.op, Tol: l.BoxedTol, MaxIter: l.BoxedMaxIter}
		}
	}
	return li, nil
}

// solve runs the law on p: the impact operator, then friction (Alg. 3
// staggered as sim.Staggered does, or the boxed LCP). It returns the
// statistics and the time spent in the impact operator and in friction.
func (li *lawInstance) solve(p *mech.Problem, lambda, beta []float64, v0 float64) (mech.Stats, time.Duration, time.Duration, error) {
	if v0 > 0 {
		li.vr.Apply(p)
	}
	li.op.spent = 0
	t := time.Now()
	var st mech.Stats
	var err error
	switch {
	case li.blcp != nil:
		st, err = li.blcp.Solve(p, lambda, beta)
	default:
		if li.arena != nil && !li.keepV {
			// a phase of the step's arena (nothing of the step's in it is
			// live) for GR's per-reflection arrays (GR.LendArena; its
			// first-push record, which nothing here reads, ends with it)
			li.arena.Reset()
			if la, ok := li.inner.(interface{ LendArena(*scratch.Arena) }); ok {
				la.LendArena(li.arena)
			}
		}
		st, err = li.op.Resolve(p, lambda)
		clear(beta[:p.NTangents()])
		if err == nil && li.fr != nil && p.NTangents() > 0 {
			var fs mech.Stats
			if li.mdp != nil && li.vk != nil {
				// GR's final ṽ is Alg. 3's v′ = v⁻ + M⁻¹Gλ bit for bit
				// (nil when it took no step: Alg. 3 then computes it);
				// read only before Alg. 3's QP solve, nothing reads it
				// after, so its storage is that solve's scratch
				vt := li.vk.Velocity()
				if tk, ok := li.vk.(interface{ TakeVelocity() []float64 }); ok && vt != nil && !li.keepV {
					vt = tk.TakeVelocity()
					li.mdp.Lend(vt)
					if sc, ok := li.vk.(interface{ Scratch() []float64 }); ok {
						li.mdp.Lend(sc.Scratch()) // GR's u, read only in Resolve
					}
					li.mdp.LendNorm(p.CoR) // read only by the impact operator
					if li.arena != nil {
						li.arena.Reset() // GR's arrays in it are dead
						li.mdp.LendArena(li.arena)
					}
					if li.beta0 == 0 {
						// μ: read by Alg. 3 only before its QP solve
						// (the bounds μλ), and by nothing after it but
						// the tangential restitution
						li.mdp.Lend(p.Mu)
					}
				}
				fs, err = li.mdp.ResolveAfter(p, lambda, vt, beta)
			} else {
				fs, err = li.fr.Resolve(p, lambda, beta)
			}
			st.Add(fs)
			if err == nil {
				err = friction.TangentialRestitution(p, lambda, beta, li.beta0)
			}
		}
	}
	total := time.Since(t)
	return st, li.op.spent, total - li.op.spent, err
}
