package script

import (
	"fmt"

	"go.starlark.net/starlark"

	"impactsim/mech"
	"impactsim/sim"
)

// Attach makes the stepper run the program's callbacks (package
// documentation): startOfSim now, the others in every step.
func (pr *Program) Attach(st *sim.Stepper) error {
	pr.st = st
	if err := pr.call("startOfSim"); err != nil {
		return err
	}
	h := sim.Hook{Name: "script " + pr.Name}
	if _, ok := pr.fn["startOfStep"]; ok {
		h.Begin = func(st *sim.Stepper) error { return pr.call("startOfStep") }
	}
	_, cor := pr.fn["restitutionCoefficient"]
	_, mu := pr.fn["frictionCoefficient"]
	if cor || mu {
		h.Coefficients = func(st *sim.Stepper, p *mech.Problem) error {
			if p.NContacts() == 0 {
				return nil // SCISim asks for coefficients only when there are contacts
			}
			pr.prob = p
			defer func() { pr.prob = nil }()
			if err := pr.call("restitutionCoefficient"); err != nil {
				return err
			}
			return pr.call("frictionCoefficient")
		}
	}
	if _, ok := pr.fn["endOfStep"]; ok {
		h.End = func(st *sim.Stepper) error { return pr.call("endOfStep") }
	}
	st.AddHook(h)
	return nil
}

// common adds the functions both systems' modules have: timestep,
// nextIteration, configuration, velocity, cor, mu and numCollisions.
func common(b *binding) {
	m := b.module
	b.funcs["timestep"] = func(pr *Program, args []starlark.Value) (starlark.Value, error) {
		return starlark.Float(pr.st.H), noArgs(m+".timestep", args)
	}
	b.funcs["nextIteration"] = func(pr *Program, args []starlark.Value) (starlark.Value, error) {
		n := pr.st.N + 1 // the step being taken
		if pr.phase == "endOfStep" {
			n = pr.st.N // the step just taken
		}
		return starlark.MakeInt(n), noArgs(m+".nextIteration", args)
	}
	b.funcs["configuration"] = func(pr *Program, args []starlark.Value) (starlark.Value, error) {
		return &array{name: m + ".configuration()", data: func() []float64 { return pr.st.Q }, ok: finiteNum, want: "a finite number"}, noArgs(m+".configuration", args)
	}
	b.funcs["velocity"] = func(pr *Program, args []starlark.Value) (starlark.Value, error) {
		return &array{name: m + ".velocity()", data: func() []float64 { return pr.st.V }, ok: finiteNum, want: "a finite number"}, noArgs(m+".velocity", args)
	}
	b.funcs["cor"] = func(pr *Program, args []starlark.Value) (starlark.Value, error) {
		if err := pr.during(m + ".cor"); err != nil {
			return nil, err
		}
		p := pr.prob
		return &array{name: m + ".cor()", data: func() []float64 { return p.CoR }, ok: func(x float64) bool { return x >= 0 && x <= 1 },
			want: "a coefficient of restitution in [0, 1]"}, noArgs(m+".cor", args)
	}
	b.funcs["mu"] = func(pr *Program, args []starlark.Value) (starlark.Value, error) {
		if err := pr.during(m + ".mu"); err != nil {
			return nil, err
		}
		p := pr.prob
		return &array{name: m + ".mu()", data: func() []float64 { return p.Mu }, ok: func(x float64) bool { return x >= 0 && finiteNum(x) },
			want: "a finite friction coefficient ≥ 0"}, noArgs(m+".mu", args)
	}
	b.funcs["numCollisions"] = func(pr *Program, args []starlark.Value) (starlark.Value, error) {
		if err := pr.during(m + ".numCollisions"); err != nil {
			return nil, err
		}
		return starlark.MakeInt(pr.prob.NContacts()), noArgs(m+".numCollisions", args)
	}
}

// during refuses a function outside restitutionCoefficient and
// frictionCoefficient (the step's contacts exist only then).
func (pr *Program) during(name string) error {
	if pr.prob == nil {
		return fmt.Errorf("%s: the step's contacts are known in restitutionCoefficient and frictionCoefficient only", name)
	}
	return nil
}

// between refuses a function during restitutionCoefficient and
// frictionCoefficient (bodies and planes cannot change in mid-step).
func (pr *Program) between(name string) error {
	if pr.prob != nil {
		return fmt.Errorf("%s: bodies and planes change in startOfStep and endOfStep only", name)
	}
	return nil
}

// contact reads the only argument as the index of one of n contacts.
// contactQueries adds the module's collisionType(i) and collisionIndices(i):
// the i-th contact of the step (n of them) by SCISim's name and by its
// bodies' indices.
func contactQueries(b *binding, n func() int, name func(c int) string, pair func(c int) (int, int)) {
	m := b.module
	b.funcs["collisionType"] = func(pr *Program, args []starlark.Value) (starlark.Value, error) {
		c, err := pr.contact(m+".collisionType", args, n())
		if err != nil {
			return nil, err
		}
		return starlark.String(name(c)), nil
	}
	b.funcs["collisionIndices"] = func(pr *Program, args []starlark.Value) (starlark.Value, error) {
		c, err := pr.contact(m+".collisionIndices", args, n())
		if err != nil {
			return nil, err
		}
		i, j := pair(c)
		return starlark.Tuple{starlark.MakeInt(i), starlark.MakeInt(j)}, nil
	}
}

func (pr *Program) contact(name string, args []starlark.Value, n int) (int, error) {
	if err := pr.during(name); err != nil {
		return 0, err
	}
	if len(args) != 1 {
		return 0, fmt.Errorf("%s: %d arguments, expected 1 (collision_idx)", name, len(args))
	}
	return index(name, args, 0, n, "collision")
}

func noArgs(name string, args []starlark.Value) error {
	if len(args) != 0 {
		return fmt.Errorf("%s takes no arguments (%d given)", name, len(args))
	}
	return nil
}
