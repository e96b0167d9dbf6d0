package impact

import (
	"fmt"
	"strings"

	"impactsim/mech"
	"impactsim/qp"
)

// Operator maps an instantaneous problem to normal impulses λ ≥ 0.
//
// Resolve writes λ (len m) into lambda; its previous contents are ignored
// unless the operator documents a warm start. An Operator keeps workspaces
// between calls and is not safe for concurrent use.
type Operator interface {
	Name() string
	Resolve(p *mech.Problem, lambda []float64) (mech.Stats, error)
}

// VelocityKeeper is an operator that keeps the post-impact velocity ṽ =
// v⁻ + M⁻¹Gλ of its last Resolve (GR.Velocity): bit for bit what
// mech.Problem.ApplyImpulses computes from λ, or nil when it has none. A
// friction operator staggered after it may take ṽ from it
// (friction.MaxDissipation.ResolveAfter) instead of computing it again.
type VelocityKeeper interface {
	Velocity() []float64
}

// NotConvergedError is returned when an operator reaches its iteration cap
// while some contact still approaches. The impulses written so far are the
// operator's last iterate and are not a valid answer.
type NotConvergedError struct {
	Operator   string
	Iterations int
	// WorstViolation is the most negative normal relative velocity ∇gᵢᵀv⁺
	// left (plus its contact index).
	WorstViolation float64
	Contact        int
}

func (e *NotConvergedError) Error() string {
	return fmt.Sprintf("impact: %s stopped at its cap of %d iterations with contact %d still approaching at normal velocity %.6g",
		e.Operator, e.Iterations, e.Contact, e.WorstViolation)
}

// Config selects and parameterizes an operator by name.
type Config struct {
	// Name is one of Names().
	Name string
	// VTol is the approach tolerance of the propagation operators (GR,
	// Gauss–Seidel, Jacobi, QCE): a contact with ∇gᵢᵀv < −VTol is a violator.
	// Zero means DefaultVTol.
	VTol float64
	// MaxIter caps outer iterations; zero means DefaultMaxIter.
	MaxIter int
	// Solver names the QP solver for LCP and GR sub-problems ("auto",
	// "dense", "sparse"); empty means "auto".
	Solver string
	// InteriorMin is qp.Auto.InteriorMin when Solver is "auto" (or
	// empty): the size above which LCPs go to the interior-point method
	// (0: qp.DefaultInteriorMin; negative: never, MPRGP above the dense
	// size instead).
	InteriorMin int
	// InteriorMax is qp.Auto.InteriorMax when Solver is "auto" (or
	// empty): the size above which those LCPs go to MPRGP first, the
	// interior point finishing only if MPRGP stops short of the tolerance
	// within qp.SparseFirstBudget (0: no limit).
	InteriorMax int
	// Elastic and Inelastic configure GRR's two parts; nil means gr and lcp.
	Elastic, Inelastic *Config
	// WarmStart makes GR and LCP start each island solve from the
	// contacts' impulses at the previous two calls (GR: its first
	// iteration), a time step apart in a simulation; see WarmStarter.
	// Answers meet the same tolerance; only their rounding changes.
	WarmStart bool
}

// Defaults for Config.
const (
	DefaultVTol    = 1e-9
	DefaultMaxIter = 100000
)

// names lists the operator names New accepts, sorted.
var names = []string{"gauss_seidel", "gr", "grr", "jacobi", "lcp", "qce", "qce_lcp"}

// Names lists the operator names New accepts.
func Names() []string { return append([]string(nil), names...) }

// New builds the operator c.Name.
func New(c Config) (Operator, error) {
	switch c.Name {
	case "lcp":
		return newLCP(c)
	case "gr":
		return newGR(c)
	case "grr":
		return newGRR(c)
	case "gauss_seidel":
		return newPairwise(c, false), nil
	case "jacobi":
		return newPairwise(c, true), nil
	case "qce":
		return newQCE(c), nil
	case "qce_lcp":
		return newQCELCP(c)
	}
	return nil, fmt.Errorf("impact: unknown operator %q (valid: %s)", c.Name, strings.Join(names, ", "))
}

func (c Config) vtol() float64 {
	if c.VTol > 0 {
		return c.VTol
	}
	return DefaultVTol
}

func (c Config) maxIter() int {
	if c.MaxIter > 0 {
		return c.MaxIter
	}
	return DefaultMaxIter
}

func (c Config) solver() (qp.Solver, error) {
	name := c.Solver
	if name == "" {
		name = "auto"
	}
	if (c.InteriorMin != 0 || c.InteriorMax != 0) && strings.EqualFold(strings.TrimSpace(name), qp.MethodAuto) {
		return &qp.Auto{InteriorMin: c.InteriorMin, InteriorMax: c.InteriorMax}, nil
	}
	return qp.New(name)
}

func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n, n+n/4+8)
	}
	return s[:n]
}

func growInt(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n, n+n/4+8)
	}
	return s[:n]
}

// worst returns the most negative entry of u and its index (or 0, -1).
func worst(u []float64) (float64, int) {
	w, k := 0.0, -1
	for i, x := range u {
		if x < w {
			w, k = x, i
		}
	}
	return w, k
}
