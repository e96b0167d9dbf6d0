package rigid3d

import (
	"math"
	"os"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/friction"
	"impactsim/impact"
	"impactsim/sim"
)

func TestMeshMassPropertiesAndPlacement(t *testing.T) {
	h := r3.Vec{X: 0.5, Y: 0.2, Z: 0.3}
	vs, fs := BoxMesh(h)
	// move the input: rotate and translate, so NewMesh must find the centre
	// and the principal axes
	o := FromRotationVector(r3.Vec{X: 0.3, Y: -0.4, Z: 0.2})
	off := r3.Vec{X: 1, Y: -2, Z: 0.5}
	in := make([]r3.Vec, len(vs))
	for k, v := range vs {
		in[k] = r3.Add(off, o.Rotate(v))
	}
	m, com, q, err := NewMesh(in, fs, 12, "box")
	if err != nil {
		t.Fatal(err)
	}
	_, want := Shape{Kind: Box, Half: h}.MassProperties(1)
	got := []float64{m.Moments.X, m.Moments.Y, m.Moments.Z}
	wl := []float64{want.X, want.Y, want.Z}
	// the eigenvalues come sorted ascending
	for _, w := range wl {
		found := false
		for _, g := range got {
			found = found || math.Abs(g-w) <= 1e-12
		}
		if !found {
			t.Errorf("moments %v, want %v (any order)", m.Moments, want)
		}
	}
	if math.Abs(m.Volume-8*h.X*h.Y*h.Z) > 1e-13 || !near3(com, off, 1e-13) {
		t.Errorf("volume %v com %v", m.Volume, com)
	}
	for k, v := range m.V {
		if w := r3.Add(com, q.Rotate(v)); !near3(w, in[k], 1e-12) {
			t.Errorf("vertex %d placed at %v, input %v", k, w, in[k])
		}
	}
	// SDF: −0.2 at the centre, positive outside, gradient outward
	if phi, _, ok := m.SDF.Eval(r3.Vec{}); !ok || math.Abs(phi+0.2) > m.SDF.H {
		t.Errorf("φ(0) = %v (ok %v), want ≈ −0.2", phi, ok)
	}
	if phi, _, ok := m.SDF.Eval(r3.Scale(1.2, m.V[0])); !ok || !(phi > 0) {
		t.Errorf("φ outside a corner = %v", phi)
	}
}

func TestMeshErrors(t *testing.T) {
	vs, fs := BoxMesh(r3.Vec{X: 1, Y: 1, Z: 1})
	if _, _, _, err := NewMesh(vs, fs[1:], 8, "open.obj"); err == nil || !strings.Contains(err.Error(), "not closed") {
		t.Errorf("open mesh: %v", err)
	}
	flipped := make([][3]int, len(fs))
	for k, f := range fs {
		flipped[k] = [3]int{f[0], f[2], f[1]}
	}
	if _, _, _, err := NewMesh(vs, flipped, 8, "in.obj"); err == nil || !strings.Contains(err.Error(), "oriented outward") {
		t.Errorf("inward mesh: %v", err)
	}
	deg := append([][3]int(nil), fs...)
	deg[0] = [3]int{0, 0, 1}
	if _, _, _, err := NewMesh(vs, deg, 8, "deg.obj"); err == nil || !strings.Contains(err.Error(), "degenerate") {
		t.Errorf("degenerate: %v", err)
	}
	for _, c := range []struct{ src, want string }{
		{"v 0 0 0\nv 1 0 0\nv 0 1 nan\n", "x.obj:3: vertex: expected a finite number"},
		{"v 0 0 0\nf 1 2 3\n", "x.obj:2: face: vertex index \"2\" out of range"},
		{"# c\nbogus 1\n", "x.obj:2: unsupported OBJ statement \"bogus\""},
	} {
		if _, _, err := ReadOBJ(strings.NewReader(c.src), "x.obj"); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("error %v, want prefix %q", err, c.want)
		}
	}
	v, f, err := ReadOBJ(strings.NewReader("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvn 0 0 1\nf 1//1 2//1 3//1 -1//1\n"), "q.obj")
	if err != nil || len(v) != 4 || len(f) != 2 || f[1] != [3]int{0, 2, 3} {
		t.Errorf("quad: %v %v %v", v, f, err)
	}
}

// TestMeshMeshContact: a small cube mesh resting on a large one, sunk by
// 1e-3, touches it with its four bottom corners, normal along the face
// normal (the SDF is exact and linear near the middle of a face).
func TestMeshMeshContact(t *testing.T) {
	mk := func(h float64) (*Mesh, Quat) {
		vs, fs := BoxMesh(r3.Vec{X: h, Y: h, Z: h})
		m, _, q, err := NewMesh(vs, fs, 16, "cube")
		if err != nil {
			t.Fatal(err)
		}
		return m, q
	}
	big, qb := mk(0.5)
	small, qs := mk(0.25)
	s := &System{CoR: 1}
	s.AddBody(Shape{Kind: MeshShape, Mesh: big}, 1, r3.Vec{}, qb, r3.Vec{}, r3.Vec{}, false)
	s.AddBody(Shape{Kind: MeshShape, Mesh: small}, 1, r3.Vec{X: 0.1, Y: 0.75 - 1e-3}, qs, r3.Vec{}, r3.Vec{}, false)
	build(s)
	cs := s.Contacts()
	if len(cs) != 4 {
		t.Fatalf("%d contacts: %+v", len(cs), cs)
	}
	for _, c := range cs {
		if c.I != 0 || c.J != 1 || !near3(c.N, r3.Vec{Y: -1}, 1e-12) || math.Abs(c.P.Y-(0.5-0.5e-3)) > 1e-12 {
			t.Errorf("contact %+v", c)
		}
	}
}

// TestTrefoilDropSymmetry (Fig. 8 middle): a trefoil-knot tube, symmetric
// under 120° rotations about the vertical, dropped flat on the floor under
// gravity with gr: over 500 steps its centre stays on the axis and it does
// not tip (horizontal ω), to 1e-8.
func TestTrefoilDropSymmetry(t *testing.T) {
	vs, fs := TrefoilMesh(0.35, 96, 8)
	m, com, q, err := NewMesh(vs, fs, 8, "trefoil")
	if err != nil {
		t.Fatal(err)
	}
	s := &System{CoR: 1, Integrator: DMV, Gravity: r3.Vec{Z: -9.81}}
	s.Planes = append(s.Planes, NewPlane(r3.Vec{Z: -1.5}, r3.Vec{Z: 1}))
	s.AddBody(Shape{Kind: MeshShape, Mesh: m}, 1, com, q, r3.Vec{}, r3.Vec{Z: 0.7}, false)
	st := stepper(t, s, "gr", 0.002)
	var asym float64
	impacts := 0
	for k := 0; k < 500; k++ {
		if err := st.Step(); err != nil {
			t.Fatal(err)
		}
		if st.Last.Contacts > 0 {
			impacts++
			if st.Last.Contacts%3 != 0 {
				t.Errorf("step %d: %d contacts, not a multiple of 3", k, st.Last.Contacts)
			}
		}
		x, _ := Pose(st.Q, 0)
		_, w := Vel(st.V, 0)
		asym = math.Max(asym, math.Max(math.Hypot(x.X-com.X, x.Y-com.Y), math.Hypot(w.X, w.Y)))
	}
	t.Logf("trefoil: %d impact steps, max horizontal drift / tipping rate %.3g", impacts, asym)
	if impacts == 0 || asym > 1e-8 {
		t.Errorf("impacts %d, asymmetry %.3g > 1e-8", impacts, asym)
	}
}

// TestMomentumInContainer (sec. 10.3): two tori in a free closed container
// with grr (c = 0.8) and maximal-dissipation friction (μ = 0.5), DMV,
// h = 0.01: the linear momentum stays at zero to 1e-10 absolute and every
// component of the angular momentum to 1e-10 relative (of |L|). 2,000
// steps by default; IMPACTSIM_LONG=1 runs the paper's 1,000 s (10⁵ steps).
func TestMomentumInContainer(t *testing.T) {
	s, err := TwoMeshesInContainer(0.8, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	steps := 2000
	if testing.Short() {
		steps = 600
	}
	if os.Getenv("IMPACTSIM_LONG") == "1" {
		steps = 100000
	}
	op, err := impact.New(impact.Config{Name: "grr"})
	if err != nil {
		t.Fatal(err)
	}
	fr, err := friction.NewMaxDissipation("auto")
	if err != nil {
		t.Fatal(err)
	}
	st, err := sim.NewStepper(s, &sim.Staggered{Impact: op, Friction: fr}, 0.01, s.Q, s.V)
	if err != nil {
		t.Fatal(err)
	}
	p0, l0 := s.LinearMomentum(s.V), s.AngularMomentum(s.Q, s.V)
	e0 := s.Energy(s.Q, s.V)
	ln := r3.Norm(l0)
	var dp, dl float64
	impacts := 0
	for k := 0; k < steps; k++ {
		if err := st.Step(); err != nil {
			t.Errorf("after %d steps (drift so far: linear %.3g, angular %.3g): %v", k, dp, dl, err)
			break
		}
		if st.Last.Contacts > 0 {
			impacts++
		}
		p, l := s.LinearMomentum(st.V), s.AngularMomentum(st.Q, st.V)
		d := r3.Sub(p, p0)
		dp = math.Max(dp, math.Max(math.Abs(d.X), math.Max(math.Abs(d.Y), math.Abs(d.Z))))
		d = r3.Sub(l, l0)
		dl = math.Max(dl, math.Max(math.Abs(d.X), math.Max(math.Abs(d.Y), math.Abs(d.Z)))/ln)
	}
	e1 := s.Energy(st.Q, st.V)
	t.Logf("%d steps, %d with contacts: energy %.6g → %.6g, max |Δp| %.3g, max |ΔL_k|/|L| %.3g", st.N, impacts, e0, e1, dp, dl)
	if impacts < 10 {
		t.Errorf("only %d impact steps", impacts)
	}
	if !(e1 < e0) {
		t.Errorf("energy did not decrease with c = 0.8 and friction: %v → %v", e0, e1)
	}
	if dp > 1e-10 || dl > 1e-10 {
		t.Errorf("momentum drift: linear %.3g (tol 1e-10), angular %.3g relative (tol 1e-10)", dp, dl)
	}
}

// TestMatryoshkaFig2: at the first impact grr (c = 0.8) separates the
// nested dolls (their vertical velocities differ), while the LCP rebounds
// them as one solid object (equal velocities).
func TestMatryoshkaFig2(t *testing.T) {
	for _, op := range []string{"grr", "lcp"} {
		s, err := Matryoshka(0.8)
		if err != nil {
			t.Fatal(err)
		}
		st := stepper(t, s, op, MatryoshkaDt)
		for k := 0; k < 10 && st.Last.Contacts == 0; k++ {
			if err := st.Step(); err != nil {
				t.Fatal(err)
			}
		}
		if st.Last.Contacts == 0 {
			t.Fatalf("%s: no impact", op)
		}
		var vy [3]float64
		for i := range vy {
			u, _ := Vel(st.V, i)
			vy[i] = u.Y
		}
		spread := math.Max(math.Abs(vy[0]-vy[1]), math.Abs(vy[1]-vy[2]))
		t.Logf("%s: %d contacts, post-impact vertical velocities %.6f %.6f %.6f", op, st.Last.Contacts, vy[0], vy[1], vy[2])
		switch op {
		case "grr":
			if spread < 0.1 || vy[0] <= 0 {
				t.Errorf("grr: velocities %v; expected the dolls to separate", vy)
			}
		case "lcp":
			if spread > 1e-9 || vy[0] <= 0 {
				t.Errorf("lcp: velocities %v; expected one rebound velocity", vy)
			}
		}
	}
}

// TestNewMeshProgress: the distance field reports every slab once, ends at
// its total, and equals the field built without a progress function.
func TestNewMeshProgress(t *testing.T) {
	vs, fs := TorusMesh(1, 0.3, 24, 12)
	var mu sync.Mutex
	calls, last, total := 0, 0, 0
	m, _, _, err := NewMeshProgress(vs, fs, 16, "torus", func(done, n int) {
		mu.Lock()
		defer mu.Unlock()
		calls++
		last, total = max(last, done), n
	})
	if err != nil {
		t.Fatal(err)
	}
	if calls != m.SDF.N[2] || last != total || total != m.SDF.N[2] {
		t.Errorf("%d progress calls, last %d of %d, want %d", calls, last, total, m.SDF.N[2])
	}
	ref, _, _, _ := NewMesh(vs, fs, 16, "torus")
	for i := range ref.SDF.Phi {
		if ref.SDF.Phi[i] != m.SDF.Phi[i] {
			t.Fatalf("cell %d: %v, without progress %v", i, m.SDF.Phi[i], ref.SDF.Phi[i])
		}
	}
}
