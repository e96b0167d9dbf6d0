package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"impactsim/channelflow"
	"impactsim/friction"
	"impactsim/mech"
	"impactsim/mpi"
	"impactsim/output"
	"impactsim/par"
	"impactsim/spheres"
)

// channelOpts are the flags shared by `channel` and `bench channel`.
type channelOpts struct {
	preset  string
	dt      float64
	sweeps  int
	tol     float64
	eps     float64
	domains int
	relax   float64
	workers int
	seed    uint64
	resume  string
}

func (o *channelOpts) register(fs *flag.FlagSet) {
	fs.StringVar(&o.preset, "preset", "paper", "channel: `paper|medium|half|narrow|tiny`, paper (15 × 6.5 × 2 cm, Preclik et al. sec. 4.3), medium (15 × 4 × 1.5 cm), half (7.5 × 3.25 × 1 cm: the paper's channel halved), narrow (15 × 2 × 0.5 cm) or tiny (2 × 1 × 0.4 cm)")
	fs.Float64Var(&o.dt, "dt", 0, "time step (default: the preset's, 10 µs)")
	countVar(fs, &o.sweeps, "sweeps", 0, 0, 1e9, "NBGS sweep cap (default: the preset's, 10)")
	fs.Float64Var(&o.tol, "tol", 0, "NBGS tolerance on the largest change of a contact's relative velocity in a sweep, m/s (default 1e-6)")
	fs.Float64Var(&o.eps, "epsilon", -1, "error reduction ε in [0, 1) (default: the preset's, 0.7)")
	countVar(fs, &o.domains, "domains", 0, 0, 1e6, "domains of the Gauss–Seidel/weighted-Jacobi blend (default: the preset's)")
	fs.Float64Var(&o.relax, "relax", 0, "relaxation ω in (0, 1] of contacts across domains (default 0.75)")
	countVar(fs, &o.workers, "workers", 0, 0, maxWorkers, "goroutines (0: GOMAXPROCS); results do not depend on it")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the velocity perturbations")
	fs.Var(&fileFlag{v: &o.resume}, "resume", "start from a state written by --save-state with the same preset (the statistics start afresh; a bare file name not in the working directory is looked up under out/)")
}

// config validates the flags (bad input: exit 2) and returns the
// configuration.
func (o *channelOpts) config(fs *flag.FlagSet) (channelflow.Config, error) {
	var c channelflow.Config
	switch o.preset {
	case "paper":
		c = channelflow.Paper()
	case "narrow":
		c = channelflow.Narrow()
	case "medium":
		c = channelflow.Medium()
	case "half":
		c = channelflow.Half()
	case "tiny":
		c = channelflow.Tiny()
	default:
		return c, badInput("%s: --preset: expected paper, medium, half, narrow or tiny, got %q", fs.Name(), o.preset)
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if given["dt"] {
		if !(o.dt > 0) || math.IsInf(o.dt, 0) {
			return c, badInput("%s: --dt: expected a time step > 0, got %v", fs.Name(), o.dt)
		}
		c.H = o.dt
	}
	if given["sweeps"] {
		if o.sweeps < 1 {
			return c, badInput("%s: --sweeps: expected at least 1, got %d", fs.Name(), o.sweeps)
		}
		c.Law.MaxIter = o.sweeps
	}
	if given["tol"] {
		if !(o.tol > 0) {
			return c, badInput("%s: --tol: expected a tolerance > 0, got %v", fs.Name(), o.tol)
		}
		c.Law.Tol = o.tol
	}
	if given["epsilon"] {
		if !(o.eps >= 0 && o.eps < 1) {
			return c, badInput("%s: --epsilon: expected an error reduction in [0, 1), got %v", fs.Name(), o.eps)
		}
		c.Epsilon = o.eps
	}
	if given["domains"] {
		if o.domains < 1 {
			return c, badInput("%s: --domains: expected at least 1, got %d", fs.Name(), o.domains)
		}
		c.Law.Domains = o.domains
	}
	if given["relax"] {
		if !(o.relax > 0 && o.relax <= 1) {
			return c, badInput("%s: --relax: expected a relaxation in (0, 1], got %v", fs.Name(), o.relax)
		}
		c.Law.Relax = o.relax
	}
	c.Seed = o.seed
	if err := c.Check(); err != nil {
		return c, usageError{err}
	}
	return c, nil
}

// newFlow builds a flow of c, resumed from o.resume when set.
func (o *channelOpts) newFlow(c channelflow.Config) (*channelflow.Flow, error) {
	f, err := channelflow.New(c)
	if err != nil {
		return nil, usageError{err}
	}
	if o.resume != "" {
		r, err := os.Open(o.resume)
		if err != nil {
			return nil, usageError{fmt.Errorf("--resume: %w", err)}
		}
		defer r.Close()
		if err := f.ReadState(r); err != nil {
			return nil, usageError{fmt.Errorf("--resume %s: %w", o.resume, err)}
		}
	}
	return f, nil
}

// cmdChannel runs `channel`: the granular channel flow with Coulomb-like
// and maximum-dissipation blocks side by side. Under mpirun (or with
// --mpi-sweeps) the flow runs across the ranks (channel_mpi.go).
func cmdChannel(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("channel")
	var o channelOpts
	o.register(fs)
	var m channelMPIOpts
	m.register(fs)
	end := fs.Float64("end", 0.05, "simulated time (s; the paper: 10)")
	laws := fs.String("law", "both", "block law: `maxdiss|coulomb|both` (both: one after the other)")
	from := fs.Float64("from", 0, "leave samples before this time out of the averages (filling transient)")
	sampleEvery := count(fs, "sample-every", 0, 0, 1e9, "steps between statistics samples (default: the preset's, 1000)")
	out := fs.String("out", filepath.Join("out", "channel"), "output directory")
	save := outFile(fs, "save-state", "write the final state of each run to this file (LAW inserted before the extension when --law both)")
	vtkEvery := count(fs, "vtk-every", 0, 0, 1e9, "also write the spheres as VTK every this many steps (0: the final state only with --vtk)")
	vtk := fs.Bool("vtk", false, "write VTK files of the spheres (ParaView)")
	quiet := fs.Bool("quiet", false, "no progress bar")
	strict := fs.Bool("strict", false, "stop at the first step whose sweeps reach the cap before the tolerance (exit 1; the outputs describe the state reached)")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	world, err := m.init(fs)
	if err != nil {
		return err
	}
	var c channelflow.Config
	var blocks []friction.BlockLaw
	setup := func() error {
		var err error
		if c, err = o.config(fs); err != nil {
			return err
		}
		if *save != "" {
			// checked now, not when the state is due at the end of the run
			if err := output.CheckWritable(*save); err != nil {
				return usageError{fmt.Errorf("channel: --save-state: %w", err)}
			}
		}
		switch *laws {
		case "both":
			blocks = []friction.BlockLaw{friction.CoulombBlock, friction.MaxDissipationBlock}
		case "maxdiss", "coulomb":
			b, _ := friction.ParseBlockLaw(*laws)
			blocks = []friction.BlockLaw{b}
		default:
			return badInput("channel: --law: expected maxdiss, coulomb or both, got %q", *laws)
		}
		if !(*end > 0) || math.IsInf(*end, 0) {
			return badInput("channel: --end: expected a time > 0, got %v", *end)
		}
		if *sampleEvery < 0 || *vtkEvery < 0 {
			return badInput("channel: --sample-every and --vtk-every must be ≥ 0")
		}
		if *sampleEvery > 0 {
			c.SampleEvery = *sampleEvery
		}
		if o.resume != "" {
			if _, err := os.Stat(o.resume); err != nil {
				return badInput("channel: --resume: %v", err)
			}
		}
		return m.check(fs, &c)
	}
	if err := m.agree(world, setup(), stderr); err != nil {
		return err
	}
	steps := int(math.Round(*end / c.H))
	pool := par.New(o.workers)
	defer pool.Close()
	root := m.root(world)
	var tabs []channelflow.Table2
	for _, b := range blocks {
		c.Law.Block = b
		f, err := o.newFlow(c)
		if err == nil {
			err = m.distribute(world, f, pool)
		}
		if err := m.agree(world, err, stderr); err != nil {
			return err
		}
		f.Sys.SetPool(pool)
		dir := *out
		if len(blocks) > 1 {
			dir = filepath.Join(*out, b.String())
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return m.fail(world, err)
		}
		tab, runErr := runChannel(f, c, steps, int(math.Round(*from/c.H))+f.Steps, dir, *vtk, *vtkEvery, *quiet, *strict, world, stderr)
		if runErr != nil && (tab.Steps == 0 || world != nil && world.Size() > 1 && !errors.As(runErr, new(*mech.CapError))) {
			return m.fail(world, runErr)
		}
		tabs = append(tabs, tab)
		if root {
			fmt.Fprintf(stdout, "%-8s %d steps to t = %.4g s: %.0f spheres, solid fraction %.1f %%, %.0f contacts (%.2f per sphere), max penetration %.1f µm (%.2f %% of r), peak cell speed %.3f m/s, %d capped steps, %s\n",
				b, tab.Steps, float64(tab.Steps)*c.H, tab.AvgParticles, 100*tab.SolidFraction, tab.AvgContacts, tab.ContactsPerParticle,
				tab.MaxPenetration*1e6, 100*tab.MaxPenetrationRel, tab.PeakCellSpeed, tab.CappedSteps, dir)
		}
		if *save != "" && root {
			path := *save
			if len(blocks) > 1 {
				ext := filepath.Ext(path)
				path = strings.TrimSuffix(path, ext) + "_" + b.String() + ext
			}
			if err := saveChannel(f, path); err != nil {
				return m.fail(world, err)
			}
		}
		if runErr != nil {
			m.finalize(world)
			return runErr
		}
	}
	if len(blocks) > 1 && root {
		if err := writeTable2(filepath.Join(*out, "table2.csv"), blocks, tabs); err != nil {
			return m.fail(world, err)
		}
	}
	return m.finalize(world)
}

func saveChannel(f *channelflow.Flow, path string) error {
	return output.WriteAtomic(path, f.WriteState)
}

// runChannel steps f and writes its run directory: samples.csv (every
// sample), summary.json (configuration and Table 2), the final state's
// speed and angular-speed maps (CSV + PNG), the RDF (CSV + PNG) and, with
// vtk, the spheres as VTK. A flow across ranks (world not nil) writes one
// VTK piece per rank and frame and, on rank 0, their index; the rest is
// written by rank 0 from the reductions and the final state gathered
// there (other ranks return a zero Table2).
func runChannel(f *channelflow.Flow, c channelflow.Config, steps, from int, dir string, vtk bool, vtkEvery int, quiet, strict bool, world mpi.Comm, stderr io.Writer) (channelflow.Table2, error) {
	root := world == nil || world.Rank() == 0
	var pvd *output.PVDWriter
	var err error
	if vtk {
		if pvd, err = output.NewPVDWriter(filepath.Join(dir, "vtk", "spheres.pvd")); err != nil {
			return channelflow.Table2{}, err
		}
	}
	frames := 0
	writeVTK := func() error {
		if pvd == nil {
			return nil
		}
		if world != nil {
			k := frames
			frames++
			return writeChannelPieces(f, world, pvd, k, float64(f.Steps)*c.H)
		}
		s := f.Sys
		pts := make([][3]float64, s.N())
		vel, om := make([][3]float64, s.N()), make([][3]float64, s.N())
		for i := range pts {
			copy(pts[i][:], s.X[3*i:3*i+3])
			copy(vel[i][:], s.VW[6*i:6*i+3])
			copy(om[i][:], s.VW[6*i+3:6*i+6])
		}
		name := fmt.Sprintf("spheres_%08d.vtp", f.Steps)
		if err := output.WriteVTP(filepath.Join(pvd.Dir(), name), pts, []output.PointField{
			output.ScalarField("radius", append([]float64(nil), s.R...)), output.VectorField("velocity", vel), output.VectorField("omega", om)}, output.VTKBinary); err != nil {
			return err
		}
		return pvd.Add(float64(f.Steps)*c.H, name)
	}
	quiet = quiet || !root
	bar := progress(stderr, quiet, float64(steps), "channel "+c.Law.Block.String())
	t0 := time.Now()
	var detect, solve, integrate time.Duration
	start := f.Steps
	var capErr error
	for k := 0; k < steps; k++ {
		st := f.Step()
		if st.Err != nil {
			return channelflow.Table2{}, fmt.Errorf("channel %s: step %d: %w", c.Law.Block, f.Steps+1, st.Err)
		}
		if strict && st.Law.Capped > 0 {
			capErr = fmt.Errorf("channel %s: step %d (t = %.6g s): %w", c.Law.Block, f.Steps, float64(f.Steps)*c.H,
				&mech.CapError{Iterations: st.Law.CappedIterations, Residual: st.Law.CappedResidual, Tol: st.Law.CappedTol})
			break
		}
		detect += st.Detect
		solve += st.Solve
		integrate += st.Integrate
		if vtkEvery > 0 && (k+1)%vtkEvery == 0 {
			if err := writeVTK(); err != nil {
				return channelflow.Table2{}, err
			}
		}
		bar.Update(float64(k + 1))
	}
	bar.Finish()
	if vtkEvery == 0 {
		if err := writeVTK(); err != nil {
			return channelflow.Table2{}, err
		}
	}
	if pvd != nil && root {
		if err := pvd.Close(); err != nil {
			return channelflow.Table2{}, err
		}
	}
	wall := time.Since(t0)
	if err := f.Sync(0); err != nil {
		return channelflow.Table2{}, err
	}
	if !root {
		return channelflow.Table2{Steps: f.Steps}, capErr
	}
	tab := f.Table2(from)
	// samples.csv
	sw, err := output.NewSeriesWriter(filepath.Join(dir, "samples.csv"), []string{"step", "time", "particles", "contacts", "pair_contacts", "sweeps", "residual", "kinetic"})
	if err != nil {
		return tab, err
	}
	for _, s := range f.Stats.Samples {
		sw.Write(float64(s.Step), s.Time, float64(s.Particles), float64(s.Contacts), float64(s.Pairs), float64(s.Iterations), s.Residual, s.Kinetic)
	}
	if err := sw.Close(); err != nil {
		return tab, err
	}
	speed, omega := f.Maps()
	scale := func(h *output.Heatmap) { h.X1 *= 100; h.Y1 *= 100 } // cm
	scale(speed)
	scale(omega)
	if err := writeMap(filepath.Join(dir, "speed"), speed, "mean speed per 1 mm column (final frame; Fig. 8)", "m/s", 0, 1); err != nil {
		return tab, err
	}
	if err := writeMap(filepath.Join(dir, "omega"), omega, "mean angular speed per 1 mm column (final frame; Fig. 9)", "rad/ms", 0, 2); err != nil {
		return tab, err
	}
	r, g := f.RDF(5, 50)
	rw, err := output.NewSeriesWriter(filepath.Join(dir, "rdf.csv"), []string{"r_over_d", "g"})
	if err != nil {
		return tab, err
	}
	for k := range r {
		rw.Write(r[k], g[k])
	}
	if err := rw.Close(); err != nil {
		return tab, err
	}
	one := []float64{1, 1}
	if err := output.PlotSeriesOptions(filepath.Join(dir, "rdf.png"), output.PlotOptions{Title: fmt.Sprintf("radial distribution function, x in [%g, %g] cm (Fig. 10)", c.RDFX0*100, c.RDFX1*100), XLabel: "r / d", YLabel: "g(r)"},
		[]output.Series{{Name: "g(r)", X: r, Y: g}, {Name: "g = 1", X: []float64{0, r[len(r)-1]}, Y: one}}); err != nil {
		return tab, err
	}
	summary := map[string]any{
		"config":            c,
		"block_law":         c.Law.Block.String(),
		"table2":            tab,
		"from_step":         from,
		"steps_run":         f.Steps - start,
		"wall_seconds":      wall.Seconds(),
		"seconds_detect":    detect.Seconds(),
		"seconds_solve":     solve.Seconds(),
		"seconds_integrate": integrate.Seconds(),
		"final_particles":   f.N(),
		"paper_table2":      map[string]any{"avg_particles": 2.47e5, "solid_fraction": 0.572, "avg_contacts": 3.20e5, "contacts_per_particle": 2.59, "max_penetration_um": map[string]float64{"coulomb": 39.1, "maxdiss": 46.5}, "peak_cell_speed": map[string]float64{"coulomb": 1.42, "maxdiss": 1.39}},
	}
	if f.Ranks() != nil {
		summary["ranks"] = channelRanksSummary(f, world)
	}
	if capErr != nil {
		summary["error"] = capErr.Error()
		if err := output.WriteJSON(filepath.Join(dir, "summary.json"), summary); err != nil {
			return tab, err
		}
		return tab, capErr
	}
	if tab.CappedSteps > 0 {
		fmt.Fprintf(stderr, "impactsim: channel %s: %d of %d steps stopped at the sweep cap %d before the tolerance %g (recorded; the paper's runs use a fixed number of sweeps)\n",
			c.Law.Block, tab.CappedSteps, f.Steps-start, c.Law.MaxIter, c.Law.Tol)
	}
	return tab, output.WriteJSON(filepath.Join(dir, "summary.json"), summary)
}

// writeMap writes base.csv (x_cm, y_cm, value per cell) and base.png.
func writeMap(base string, h *output.Heatmap, title, unit string, vmin, vmax float64) error {
	w, err := output.NewSeriesWriter(base+".csv", []string{"x_cm", "y_cm", "value"})
	if err != nil {
		return err
	}
	for iy := 0; iy < h.NY; iy++ {
		for ix := 0; ix < h.NX; ix++ {
			x := h.X0 + (float64(ix)+0.5)*(h.X1-h.X0)/float64(h.NX)
			y := h.Y0 + (float64(iy)+0.5)*(h.Y1-h.Y0)/float64(h.NY)
			w.Write(x, y, h.Data[iy*h.NX+ix])
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	return output.WriteHeatmap(base+".png", h, output.HeatmapOptions{Title: title, XLabel: "x (cm)", YLabel: "y (cm)", Label: unit, VMin: vmin, VMax: vmax})
}

// writeTable2 writes Table 2 for the runs side by side with the paper.
func writeTable2(path string, blocks []friction.BlockLaw, tabs []channelflow.Table2) error {
	cols := []string{"quantity", "paper_coulomb", "paper_maxdiss"}
	for _, b := range blocks {
		cols = append(cols, b.String())
	}
	var sb strings.Builder
	sb.WriteString(strings.Join(cols, ",") + "\n")
	row := func(name string, pc, pm float64, f func(t channelflow.Table2) float64) {
		fmt.Fprintf(&sb, "%s,%g,%g", name, pc, pm)
		for _, t := range tabs {
			fmt.Fprintf(&sb, ",%.6g", f(t))
		}
		sb.WriteString("\n")
	}
	row("avg_particles", 2.47e5, 2.47e5, func(t channelflow.Table2) float64 { return t.AvgParticles })
	row("solid_fraction", 0.572, 0.572, func(t channelflow.Table2) float64 { return t.SolidFraction })
	row("avg_contacts", 3.20e5, 3.20e5, func(t channelflow.Table2) float64 { return t.AvgContacts })
	row("contacts_per_particle", 2.59, 2.59, func(t channelflow.Table2) float64 { return t.ContactsPerParticle })
	row("max_penetration_um", 39.1, 46.5, func(t channelflow.Table2) float64 { return t.MaxPenetration * 1e6 })
	row("max_penetration_of_r", 0.0831, 0.0989, func(t channelflow.Table2) float64 { return t.MaxPenetrationRel })
	row("peak_cell_speed", 1.42, 1.39, func(t channelflow.Table2) float64 { return t.PeakCellSpeed })
	return os.WriteFile(path, []byte(sb.String()), 0o644)
}

// cmdBenchChannel runs `bench channel`: per-step times of the channel flow,
// contact updates per second per core, memory per sphere.
func cmdBenchChannel(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench channel")
	var o channelOpts
	o.register(fs)
	var m channelMPIOpts
	m.register(fs)
	steps := count(fs, "steps", 20, 1, 1e9, "steps to time")
	warm := count(fs, "warm", 0, 0, 1e9, "steps before timing")
	law := fs.String("law", "maxdiss", "block law: `maxdiss|coulomb`")
	cpuprofile := outFile(fs, "cpuprofile", "write a CPU profile (go tool pprof) to this file (rank 0's across ranks)")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	world, err := m.init(fs)
	if err != nil {
		return err
	}
	var c channelflow.Config
	setup := func() error {
		var err error
		if c, err = o.config(fs); err != nil {
			return err
		}
		if c.Law.Block, err = friction.ParseBlockLaw(*law); err != nil {
			return badInput("bench channel: --law: %v", err)
		}
		if *steps < 1 || *warm < 0 {
			return badInput("bench channel: --steps ≥ 1 and --warm ≥ 0 expected")
		}
		return m.check(fs, &c)
	}
	if err := m.agree(world, setup(), stderr); err != nil {
		return err
	}
	f, err := o.newFlow(c)
	pool := par.New(o.workers)
	defer pool.Close()
	if err == nil {
		err = m.distribute(world, f, pool)
	}
	if err := m.agree(world, err, stderr); err != nil {
		return err
	}
	root := m.root(world)
	f.Sys.SetPool(pool)
	step := func() spheres.StepStats {
		st := f.Step()
		if st.Err != nil {
			m.fail(world, st.Err)
		}
		return st
	}
	for k := 0; k < *warm; k++ {
		step()
	}
	if !root {
		*cpuprofile = ""
	}
	stop, err := startCPUProfile(*cpuprofile)
	if err != nil {
		return m.fail(world, err)
	}
	var per []float64
	var contacts, updates, sweeps float64
	var det, sol, integ time.Duration
	var comm time.Duration
	var bytes int
	cpu0, cpuOK := processCPU()
	wall0 := time.Now()
	for k := 0; k < *steps; k++ {
		t0 := time.Now()
		st := step()
		per = append(per, time.Since(t0).Seconds())
		contacts += float64(st.Contacts)
		updates += float64(st.Contacts * st.Law.Iterations)
		sweeps += float64(st.Law.Iterations)
		det += st.Detect
		sol += st.Solve
		integ += st.Integrate
		if d := f.Ranks(); d != nil {
			comm += d.Last.Comm
			bytes += d.Last.BytesSent
		}
	}
	wall := time.Since(wall0)
	cpu1, _ := processCPU()
	stop()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	sorted := append([]float64(nil), per...)
	sort.Float64s(sorted)
	n := float64(*steps)
	var rows []float64
	if d := f.Ranks(); d != nil {
		// every rank's seconds, communication seconds and bytes sent per
		// step, CPU seconds per step, spheres and ghosts, on rank 0
		cpu := 0.0
		if cpuOK {
			cpu = (cpu1 - cpu0).Seconds() / n
		}
		if rows, err = d.GatherRows([]float64{wall.Seconds() / n, comm.Seconds() / n, float64(bytes) / n, cpu, float64(d.Last.Owned), float64(d.Last.Ghosts)}); err != nil {
			return m.fail(world, err)
		}
	}
	if !root {
		return m.finalize(world)
	}
	if world != nil {
		fmt.Fprintf(stdout, "ranks    %d (%d × %d × %d subdomains), distributed NBGS %s\n", world.Size(), f.Dims()[0], f.Dims()[1], f.Dims()[2], m.mode)
	}
	domains := fmt.Sprintf("%d domains", max(1, c.Law.Domains))
	if world != nil {
		domains = "sweeps across the ranks"
	}
	fmt.Fprintf(stdout, "channel %s (%s), dt %g, %d sweeps (tol %g), %s, %d workers\n", o.preset, c.Law.Block, c.H, c.Law.MaxIter, c.Law.Tol, domains, pool.Workers())
	fmt.Fprintf(stdout, "spheres %d, contacts %.0f per step (%.2f per sphere), %.2f sweeps per step\n", f.N(), contacts/n, 2*contacts/n/float64(f.N()), sweeps/n)
	fmt.Fprintf(stdout, "step     median %.4f s, mean %.4f s, min %.4f s, max %.4f s over %d steps\n", sorted[len(sorted)/2], sum(per)/n, sorted[0], sorted[len(sorted)-1], *steps)
	fmt.Fprintf(stdout, "parts    detection %.4f s, sweeps %.4f s, integration and inflow %.4f s per step\n", det.Seconds()/n, sol.Seconds()/n, integ.Seconds()/n)
	fmt.Fprintf(stdout, "sweeps   %.3g contact updates per second per core (%d workers)\n", updates/sol.Seconds()/float64(pool.Workers()), pool.Workers())
	if cpuOK {
		// the CPU time shows what the wall times are worth on a shared
		// machine: with w workers it is w times the wall time when the
		// run had its cores to itself
		cpu := (cpu1 - cpu0).Seconds()
		fmt.Fprintf(stdout, "cpu      %.4f s per step (all workers; %.2f CPU seconds per wall second); %.3g contact updates per CPU second of the sweeps (their share of the wall time, %.0f %%, applied to the CPU time)\n",
			cpu/n, cpu/wall.Seconds(), updates/(cpu*sol.Seconds()/wall.Seconds()), 100*sol.Seconds()/wall.Seconds())
	}
	for r := 0; r+6 <= len(rows); r += 6 {
		q := rows[r : r+6]
		fmt.Fprintf(stdout, "rank %-3d %.4f s per step, comm %.4f s, %.0f bytes sent per step, cpu %.4f s per step, %.0f spheres, %.0f ghosts\n", r/6, q[0], q[1], q[2], q[3], q[4], q[5])
	}
	fmt.Fprintf(stdout, "memory   %.0f B per sphere (Go heap in use %.1f MB), peak RSS %s\n", float64(ms.HeapInuse)/float64(f.N()), float64(ms.HeapInuse)/1e6, peakRSS())
	fmt.Fprintf(stdout, "machine  %s, %d cores (GOMAXPROCS %d), load average %s\n", cpuModel(), runtime.NumCPU(), runtime.GOMAXPROCS(0), loadAvg())
	return m.finalize(world)
}

func sum(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}
