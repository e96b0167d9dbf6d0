package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"impactsim/output"
)

// TestNonFiniteStopsRun: eight cubes under Jacobi blow up; the run stops
// at the first non-finite state with exit 1, the step and the body named,
// and the last finite state on disk.
func TestNonFiniteStopsRun(t *testing.T) {
	dir := t.TempDir()
	code, _, errs := runCLI(t, "run", "builtin:eight_cubes", "--operator", "jacobi", "--end", "2", "--quiet", "--out", dir)
	if code != 1 || !strings.Contains(errs, "step 687 (t = 0.687): body 1's qw is NaN") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	tr, err := output.ReadLayoutTrajectory(dir, output.Rigid3DLayout)
	if err != nil {
		t.Fatal(err)
	}
	last := tr.Frames[len(tr.Frames)-1]
	if last.Time != 0.686 {
		t.Errorf("last frame at t = %v, want the last finite state at 0.686", last.Time)
	}
	for _, x := range append(last.Q, last.V...) {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			t.Fatalf("last frame is not finite")
		}
	}
}

// TestOverflowingInputRefused: values whose products overflow or
// underflow, and end times that are no count of steps, exit 2 with the
// file and line (or the flag) before anything is written.
func TestOverflowingInputRefused(t *testing.T) {
	tmp := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(tmp, name)
		os.WriteFile(p, []byte(body), 0o644)
		return p
	}
	b2 := func(dt, ball string) string {
		return "<ball2d_scene>\n<integrator type=\"verlet\" dt=\"" + dt + "\"/>\n" + ball + "\n</ball2d_scene>\n"
	}
	ball := `<ball x="0" y="0" vx="0" vy="0" m="1" r="1" fixed="0"/>`
	b3 := `<rigidbody3d_scene>
<integrator type="dmv" dt="0.01"/>
<geometry type="sphere" r="1"/>
<rigid_body_with_density x="0 0 0" v="0 0 0" omega="0 0 0" rho="1e-320" fixed="0" geo_idx="0"/>
</rigidbody3d_scene>
`
	out := filepath.Join(tmp, "out")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{write("m.xml", b2("0.01", strings.Replace(ball, `m="1"`, `m="1e-320"`, 1)))}, `m.xml:3: ball attribute "m"`},
		{[]string{write("v.xml", b2("0.01", strings.Replace(ball, `vx="0"`, `vx="1e308"`, 1)))}, `v.xml:3: ball attribute "vx"`},
		{[]string{write("dt.xml", b2("1e-300", ball))}, `dt.xml:2: integrator attribute "dt"`},
		{[]string{write("rho.xml", b3)}, `rho.xml:4: rigid_body_with_density attribute "rho"`},
		{[]string{"builtin:newtons_cradle", "--end", "1e17"}, "more than the 9.01e+15 (2⁵³) a run can count"},
		{[]string{"builtin:newtons_cradle", "--end", "1e-5"}, "less than half a time step"},
	} {
		code, _, errs := runCLI(t, append(append([]string{"run"}, c.args...), "--quiet", "--out", out)...)
		if code != 2 || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, %q (want %q)", c.args, code, errs, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%v: the run directory was written", c.args)
		}
	}
}
