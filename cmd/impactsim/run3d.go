package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"impactsim/friction"
	"impactsim/impact"
	"impactsim/output"
	"impactsim/rigid3d"
	"impactsim/scenario"
	"impactsim/scene"
	"impactsim/sim"
)

// builtins3D are the built-in rigidbody3d scenes (builtin:NAME); op is the
// default operator (--operator overrides it).
var builtins3D = map[string]struct {
	desc string
	op   string
	make func() (*rigid3d.System, float64, error)
}{
	"box_drop": {"Fig. 1: a box landing flat on a plane (gr: straight bounce)", "gr",
		func() (*rigid3d.System, float64, error) { return rigid3d.BoxDrop(), rigid3d.BoxDropDt, nil }},
	"eight_cubes": {"Fig. 8 top: eight touching cubes flying apart in a box, no gravity", "gr",
		func() (*rigid3d.System, float64, error) { return rigid3d.EightCubes(0), rigid3d.EightCubesDt, nil }},
	"eight_cubes_spin": {"eight_cubes with mirror-symmetric spins", "gr",
		func() (*rigid3d.System, float64, error) { return rigid3d.EightCubes(1), rigid3d.EightCubesDt, nil }},
	"matryoshka": {"Fig. 2: nested hollow boxes dropped with c = 0.8 (grr separates them, lcp does not)", "grr",
		func() (*rigid3d.System, float64, error) {
			s, err := rigid3d.Matryoshka(0.8)
			return s, rigid3d.MatryoshkaDt, err
		}},
	"tori_in_box": {"sec. 10.3: two tori in a free closed box, c = 0.8, μ = 0.5, zero linear momentum", "grr",
		func() (*rigid3d.System, float64, error) {
			s, err := rigid3d.TwoMeshesInContainer(0.8, 0.5)
			return s, 0.01, err
		}},
	"gas": {"Fig. 9: 125 cubes and spheres in a closed box, no gravity, c = 1 (use --cor)", "grr",
		func() (*rigid3d.System, float64, error) { return rigid3d.Gas(125, 1, 1), rigid3d.GasDt, nil }},
}

// builtin3DNames lists builtins3D sorted.
func builtin3DNames() []string {
	names := make([]string, 0, len(builtins3D))
	for n := range builtins3D {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// tryRun3D runs c if its scene is a rigidbody3d scene (a file whose root is
// <rigidbody3d_scene>, or builtin:box_drop, …); ok is false otherwise.
func tryRun3D(c *runConfig, stdout, stderr io.Writer) (ok bool, err error) {
	var name string
	var r *scenario.Rigid3D
	if b, isB := strings.CutPrefix(c.sceneArg, "builtin:"); isB {
		mk, found := builtins3D[b]
		if !found {
			return false, nil
		}
		sys, dt, err := mk.make()
		if err != nil {
			return true, err
		}
		opName := c.opts.Operator
		if opName == "" {
			opName = mk.op
		}
		op, err := impact.New(impact.Config{Name: opName, Solver: solverName(c.opts.Solver), MaxIter: c.opts.MaxIter})
		if err != nil {
			return true, badInput("option --operator: %v", err)
		}
		if c.opts.CoR != nil {
			sys.CoR = *c.opts.CoR
		}
		if c.opts.Mu != nil {
			sys.Mu = *c.opts.Mu
		}
		if err := sys.Validate(); err != nil {
			return true, badInput("%s: %v", c.sceneArg, err)
		}
		law := &sim.Staggered{Impact: op}
		if sys.Mu > 0 {
			fr, err := friction.NewMaxDissipation(solverName(c.opts.Solver))
			if err != nil {
				return true, badInput("option --solver: %v", err)
			}
			law.Friction = fr
		}
		st, err := sim.NewStepper(sys, law, dt, sys.Q, sys.V)
		if err != nil {
			return true, err
		}
		r = &scenario.Rigid3D{Sys: sys, Law: law, Stepper: st, Mapping: "built-in scene, operator " + op.Name()}
		name = b
	} else {
		root, err := scene.RootElement(c.sceneArg)
		if err != nil || root != "rigidbody3d_scene" {
			return false, nil
		}
		sc, err := scene.LoadRigidBody3D(c.sceneArg)
		if err != nil {
			return true, usageError{err}
		}
		r, err = scenario.NewRigid3D(sc, c.opts)
		if err != nil {
			return true, usageError{err}
		}
		name = strings.TrimSuffix(filepath.Base(c.sceneArg), filepath.Ext(c.sceneArg))
		if c.end == 0 {
			c.end = sc.EndTime
		}
	}
	if c.out == "" {
		c.out = filepath.Join("out", name)
	}
	if c.end == 0 {
		c.end = 1
	}
	res, err := simulate3D(r, c, stderr)
	if res != nil {
		printSummary3D(stdout, res)
	}
	return true, err
}

func solverName(s string) string {
	if s == "" {
		return "auto"
	}
	return s
}

// run3DResult is the summary of a 3D run (summary.json).
type run3DResult struct {
	Scene            string     `json:"scene"`
	Law              string     `json:"law"`
	Mapping          string     `json:"mapping"`
	Bodies           int        `json:"bodies"`
	Integrator       string     `json:"integrator"`
	Dt               float64    `json:"dt"`
	Steps            int        `json:"steps"`
	EndTime          float64    `json:"end_time"`
	WallSeconds      float64    `json:"wall_seconds"`
	StepsWithContact int        `json:"steps_with_contacts"`
	MaxContacts      int        `json:"max_contacts"`
	Energy0          float64    `json:"energy_initial"`
	Energy1          float64    `json:"energy_final"`
	MaxEnergyDrift   float64    `json:"max_relative_energy_drift"`
	Momentum0        [3]float64 `json:"linear_momentum_initial"`
	Momentum1        [3]float64 `json:"linear_momentum_final"`
	Dir              string     `json:"output_dir"`
	Error            string     `json:"error,omitempty"`
}

// simulate3D runs r to c.end and writes trajectory.csv (frame, time, body,
// position, quaternion, velocity, angular velocity), energy.csv and
// summary.json into c.out.
func simulate3D(r *scenario.Rigid3D, c *runConfig, stderr io.Writer) (*run3DResult, error) {
	if err := os.MkdirAll(c.out, 0o755); err != nil {
		return nil, err
	}
	st, sys := r.Stepper, r.Sys
	steps := int(math.Round(c.end / st.H))
	every := max(1, steps/c.frames)
	tf, err := os.Create(filepath.Join(c.out, "trajectory.csv"))
	if err != nil {
		return nil, err
	}
	defer tf.Close()
	tw := bufio.NewWriter(tf)
	ef, err := os.Create(filepath.Join(c.out, "energy.csv"))
	if err != nil {
		return nil, err
	}
	defer ef.Close()
	ew := bufio.NewWriter(ef)
	fmt.Fprintln(tw, "frame,time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz")
	fmt.Fprintln(ew, "step,time,kinetic,potential,total,px,py,pz,contacts")
	var pvd *output.PVDWriter
	if c.vtk {
		if pvd, err = output.NewPVDWriter(filepath.Join(c.out, "vtk", "trajectory.pvd")); err != nil {
			return nil, err
		}
	}
	var sf rigid3d.Surface
	var polys [][]int
	var bodyField []float64
	var vtkErr error
	frame := 0
	writeFrame := func() {
		if pvd != nil && vtkErr == nil {
			sys.AppendSurface(&sf, st.Q, 24)
			polys, bodyField = polys[:0], bodyField[:0]
			for k, tr := range sf.Tris {
				polys = append(polys, tr[:])
				bodyField = append(bodyField, float64(sf.Body[k]))
			}
			name := fmt.Sprintf("frame_%05d.vtp", frame)
			vtkErr = output.WriteVTPPolys(filepath.Join(pvd.Dir(), name), sf.Points, polys, []output.PointField{output.ScalarField("body", bodyField)})
			if vtkErr == nil {
				vtkErr = pvd.Add(st.T, name)
			}
		}
		for i := 0; i < sys.N(); i++ {
			q := st.Q[7*i : 7*i+7]
			v := st.V[6*i : 6*i+6]
			fmt.Fprintf(tw, "%d,%.10g,%d,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n",
				frame, st.T, i, q[0], q[1], q[2], q[3], q[4], q[5], q[6], v[0], v[1], v[2], v[3], v[4], v[5])
		}
		frame++
	}
	p0 := sys.LinearMomentum(st.V)
	res := &run3DResult{Scene: c.sceneArg, Law: r.Law.Name(), Mapping: r.Mapping, Bodies: sys.N(), Integrator: sys.Integrator.String(),
		Dt: st.H, Dir: c.out, Energy0: sys.Energy(st.Q, st.V), Momentum0: [3]float64{p0.X, p0.Y, p0.Z}}
	writeFrame()
	prog := progress(stderr, c.quiet, float64(steps), "run "+filepath.Base(c.sceneArg))
	t0 := time.Now()
	var runErr error
	for k := 0; k < steps; k++ {
		prog.Update(float64(k))
		if err := st.Step(); err != nil {
			runErr = err
			res.Error = err.Error()
			break
		}
		if st.Last.Contacts > 0 {
			res.StepsWithContact++
			res.MaxContacts = max(res.MaxContacts, st.Last.Contacts)
		}
		ke, pe := sys.KineticEnergy(st.Q, st.V), sys.PotentialEnergy(st.Q)
		pm := sys.LinearMomentum(st.V)
		fmt.Fprintf(ew, "%d,%.10g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%d\n", st.N, st.T, ke, pe, ke+pe, pm.X, pm.Y, pm.Z, st.Last.Contacts)
		if d := math.Abs(ke+pe-res.Energy0) / math.Max(math.Abs(res.Energy0), 1e-300); d > res.MaxEnergyDrift {
			res.MaxEnergyDrift = d
		}
		if st.N%every == 0 {
			writeFrame()
		}
	}
	prog.Finish()
	if st.N%every != 0 || runErr != nil {
		writeFrame()
	}
	res.WallSeconds = time.Since(t0).Seconds()
	res.Steps, res.EndTime = st.N, st.T
	res.Energy1 = sys.Energy(st.Q, st.V)
	p1 := sys.LinearMomentum(st.V)
	res.Momentum1 = [3]float64{p1.X, p1.Y, p1.Z}
	if pvd != nil {
		if err := pvd.Close(); err != nil && vtkErr == nil {
			vtkErr = err
		}
		if vtkErr != nil {
			return res, vtkErr
		}
	}
	if err := writeScene3D(filepath.Join(c.out, "scene3d.json"), r, st.H); err != nil {
		return res, err
	}
	if err := tw.Flush(); err != nil {
		return res, err
	}
	if err := ew.Flush(); err != nil {
		return res, err
	}
	b, _ := json.MarshalIndent(res, "", "  ")
	if err := os.WriteFile(filepath.Join(c.out, "summary.json"), append(b, '\n'), 0o644); err != nil {
		return res, err
	}
	return res, runErr
}

// scene3D is scene3d.json: what `impactsim render` needs to draw a 3D run.
type scene3D struct {
	Kind   string       `json:"kind"` // "rigid3d"
	Dt     float64      `json:"dt"`
	Camera *camera3DDoc `json:"camera,omitempty"`
	Bodies []shape3DDoc `json:"bodies"`
	Planes []plane3DDoc `json:"planes"`
}

type shape3DDoc struct {
	Shape    string       `json:"shape"` // sphere, box or mesh
	R        float64      `json:"r,omitempty"`
	Half     [3]float64   `json:"half,omitempty"`
	Vertices [][3]float64 `json:"vertices,omitempty"` // mesh, body frame
	Faces    [][3]int     `json:"faces,omitempty"`
	Mass     float64      `json:"mass"`
	Fixed    bool         `json:"fixed"`
}

type camera3DDoc struct {
	Eye    [3]float64 `json:"eye"`
	LookAt [3]float64 `json:"lookat"`
	Up     [3]float64 `json:"up"`
}

type plane3DDoc struct {
	X [3]float64 `json:"x"`
	N [3]float64 `json:"n"`
}

func writeScene3D(path string, r *scenario.Rigid3D, dt float64) error {
	sys := r.Sys
	doc := scene3D{Kind: "rigid3d", Dt: dt}
	if r.Scene != nil {
		if eye, at, up, ok := scenario.CameraEye(r.Scene.Camera); ok {
			doc.Camera = &camera3DDoc{eye, at, up}
		}
	}
	for i, sh := range sys.Shapes {
		d := shape3DDoc{Shape: sh.Kind.String(), Mass: sys.Mass[i], Fixed: sys.Fixed[i]}
		switch sh.Kind {
		case rigid3d.Sphere:
			d.R = sh.R
		case rigid3d.Box:
			d.Half = [3]float64{sh.Half.X, sh.Half.Y, sh.Half.Z}
		case rigid3d.MeshShape:
			for _, v := range sh.Mesh.V {
				d.Vertices = append(d.Vertices, [3]float64{v.X, v.Y, v.Z})
			}
			d.Faces = sh.Mesh.F
		}
		doc.Bodies = append(doc.Bodies, d)
	}
	for _, p := range sys.Planes {
		doc.Planes = append(doc.Planes, plane3DDoc{X: [3]float64{p.P.X, p.P.Y, p.P.Z}, N: [3]float64{p.N.X, p.N.Y, p.N.Z}})
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

func printSummary3D(w io.Writer, r *run3DResult) {
	fmt.Fprintf(w, "scene      %s\n", r.Scene)
	fmt.Fprintf(w, "law        %s — %s\n", r.Law, r.Mapping)
	fmt.Fprintf(w, "bodies     %d, integrator %s, dt %g, %d steps to t = %g in %.2f s wall\n", r.Bodies, r.Integrator, r.Dt, r.Steps, r.EndTime, r.WallSeconds)
	fmt.Fprintf(w, "contacts   %d steps with contacts, at most %d contacts\n", r.StepsWithContact, r.MaxContacts)
	fmt.Fprintf(w, "energy     %.15g → %.15g (max relative drift %.3g)\n", r.Energy0, r.Energy1, r.MaxEnergyDrift)
	fmt.Fprintf(w, "momentum   (%.6g, %.6g, %.6g) → (%.6g, %.6g, %.6g)\n", r.Momentum0[0], r.Momentum0[1], r.Momentum0[2], r.Momentum1[0], r.Momentum1[1], r.Momentum1[2])
	fmt.Fprintf(w, "output     %s/{trajectory.csv,energy.csv,summary.json,scene3d.json}\n", r.Dir)
	if r.Error != "" {
		fmt.Fprintf(w, "ERROR      %s\n", r.Error)
	}
}
