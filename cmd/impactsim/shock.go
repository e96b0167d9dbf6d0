package main

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"impactsim/friction"
	"impactsim/impact"
	"impactsim/output"
	"impactsim/runner"
	"impactsim/scenario"
	"impactsim/scene"
	"impactsim/sim"
)

// shockLaw returns the contact law of one of the two models compared in
// Fig. 8 of Zhang et al.: "qce" is QCE-LCP (eq. 19) with the boxed-LCP
// friction pyramid (eqs. 20–21), Zhang et al.'s own; "gr" is Generalized
// Reflections with maximal-dissipation friction (Alg. 3), Smith et al.'s.
func shockLaw(name string) (sim.ContactLaw, error) {
	switch name {
	case "qce":
		op, err := impact.New(impact.Config{Name: "qce_lcp"})
		if err != nil {
			return nil, err
		}
		// Relative tolerance 1e-10 (in a pile of hundreds of grains the
		// default 1e-12 sits at the sweeps' rounding floor) and 5,000
		// sweeps (a capped step goes on and is recorded in energy.csv).
		return &friction.BoxedLCP{Normal: op, Tol: 1e-10, MaxIter: 5000}, nil
	case "gr", "grr":
		op, err := impact.New(impact.Config{Name: name})
		if err != nil {
			return nil, err
		}
		fr, err := friction.NewMaxDissipation("auto")
		if err != nil {
			return nil, err
		}
		return &sim.Staggered{Impact: op, Friction: fr}, nil
	}
	return nil, badInput("--operators: unknown model %q (want qce, gr, grr)", name)
}

// shockSettle drops the grains into the still container with the
// inelastic LCP and friction until their largest speed falls below vmax or
// the time reaches tmax, and returns them at rest where they settled.
func shockSettle(p scene.ShockParams, grains []scene.Ball, tmax, vmax float64, stderr io.Writer, quiet bool) ([]scene.Ball, float64, error) {
	zero := 0.0
	r, err := scenario.NewBall2D(scene.ShockContainer(p, grains, false), scenario.Options{Operator: "lcp", CoR: &zero, Mu: &p.Mu})
	if err != nil {
		return nil, 0, err
	}
	defer r.Close()
	st := r.Stepper
	prog := output.NewProgress(io.Discard, tmax, "")
	if !quiet {
		prog = output.NewProgress(stderr, tmax, "settling")
	}
	for st.T < tmax {
		if err := st.Step(); err != nil {
			return nil, 0, err
		}
		if st.N%50 == 0 {
			prog.Update(st.T)
			var v2 float64
			for i := 0; i < len(grains); i++ {
				v2 = math.Max(v2, st.V[2*i]*st.V[2*i]+st.V[2*i+1]*st.V[2*i+1])
			}
			if math.Sqrt(v2) < vmax {
				break
			}
		}
	}
	prog.Finish()
	out := append([]scene.Ball(nil), grains...)
	for i := range out {
		out[i].X, out[i].Y, out[i].VX, out[i].VY = st.Q[2*i], st.Q[2*i+1], 0, 0
	}
	return out, st.T, nil
}

// shockBands assigns each grain its depth band: k bands of equal depth
// from the top of the pile (band 0 at the top) down to the floor.
func shockBands(grains []scene.Ball, k int) (band []int, top float64) {
	for _, b := range grains {
		top = math.Max(top, b.Y+b.R)
	}
	band = make([]int, len(grains))
	for i, b := range grains {
		band[i] = min(k-1, int(float64(k)*(top-b.Y)/top))
	}
	return band, top
}

// shockFront is what shockFronts records per band.
type shockFront struct {
	// Time is the first time from the shake's start at which the band's
	// mean vertical velocity exceeds the threshold (NaN until it does).
	Time []float64
	// Landing is the time from the shake's start at which the band, having
	// fallen back faster than the threshold, is stopped (its mean vertical
	// velocity rises above −threshold): the compaction front that climbs
	// the pile when it lands after the shake, Jaeger et al.'s shock (NaN
	// until it lands).
	Landing []float64
	// Iteration is, in the first step of the shake, the earliest
	// iteration of the contact law's impact operator (GR reflection, QCE
	// sweep) in which a contact of the band's grains was pushed (0: none):
	// the order in which the impact travels up the pile within the step.
	Iteration []int32
}

// lawPropagation returns the propagation record of a law's impact
// operator (nil if it keeps none).
func lawPropagation(l sim.ContactLaw) impact.Propagation {
	var op impact.Operator
	switch x := l.(type) {
	case *sim.Staggered:
		op = x.Impact
	case *friction.BoxedLCP:
		op = x.Normal
	}
	p, _ := op.(impact.Propagation)
	return p
}

// shockFronts adds to st a hook that records the bands' fronts
// (shockFront) from the shake's start; n is the number of grains.
func shockFronts(st *sim.Stepper, band []int, k int, start, vth float64) *shockFront {
	f := &shockFront{Time: make([]float64, k), Landing: make([]float64, k), Iteration: make([]int32, k)}
	for i := range f.Time {
		f.Time[i], f.Landing[i] = math.NaN(), math.NaN()
	}
	fell := make([]bool, k)
	sum, cnt := make([]float64, k), make([]float64, k)
	for _, b := range band {
		cnt[b]++
	}
	prop := lawPropagation(st.Law)
	first := true
	st.AddHook(sim.Hook{Name: "shock fronts", End: func(st *sim.Stepper) error {
		if st.T <= start {
			return nil
		}
		if first && prop != nil && st.Last.Contacts > 0 {
			first = false
			p := &st.Problem
			for c, it := range prop.FirstPush() {
				for _, b := range p.Bodies[2*c : 2*c+2] {
					if it > 0 && b >= 0 && b < len(band) {
						if g := band[b]; f.Iteration[g] == 0 || it < f.Iteration[g] {
							f.Iteration[g] = it
						}
					}
				}
			}
		}
		clear(sum)
		for i, b := range band {
			sum[b] += st.V[2*i+1]
		}
		for b := range f.Time {
			v := sum[b] / cnt[b]
			if math.IsNaN(f.Time[b]) && v > vth {
				f.Time[b] = st.T - start
			}
			fell[b] = fell[b] || v < -vth
			if fell[b] && math.IsNaN(f.Landing[b]) && v > -vth {
				f.Landing[b] = st.T - start
			}
		}
		return nil
	}})
	return f
}

// cmdShock is the shock wave after one shake (Zhang et al. Fig. 8, after
// Jaeger et al. 1996): grains settle in a container and are coloured by
// depth; the container is shaken once; each model's run directory, the
// deformed bands (render/) and the time the velocity front reaches each
// band and the time it is stopped when the pile lands (fronts.csv,
// fronts.png, landing.png) are written.
func cmdShock(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("shock")
	p := scene.DefaultShock()
	countVar(fs, &p.N, "n", p.N, 2, 1000000, "number of grains")
	fs.Float64Var(&p.Width, "width", p.Width, "inside width `W` of the container in grain diameters")
	fs.Float64Var(&p.Amplitude, "amplitude", p.Amplitude, "amplitude `A` of the shake")
	fs.Float64Var(&p.Frequency, "freq", p.Frequency, "frequency `F` of the shake (one period)")
	fs.Float64Var(&p.Dt, "dt", p.Dt, "time step")
	ops := fs.String("operators", "qce,gr", "models, comma-separated: qce (QCE-LCP with boxed-LCP friction), gr (GR with Alg. 3 friction), grr (generalized restitution with Alg. 3 friction: GR's model for c < 1 without its thousands of reflections in a resting pile)")
	bands := count(fs, "bands", 10, 2, 1000, "number of depth bands")
	settle := fs.Float64("settle", 5, "longest settling time")
	after := fs.Float64("after", 1.5, "time simulated after the shake (long enough for the pile to land)")
	frames := count(fs, "frames", 100, 1, 100000, "trajectory frames per model")
	out := fs.String("out", "out/shock", "output directory")
	quiet := fs.Bool("quiet", false, "no progress bars")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return badInput("shock takes no arguments, got %q", pos[0])
	}
	switch {
	case p.N < 2 || *bands < 2 || *bands > p.N || *frames < 1:
		return badInput("shock: want --n ≥ 2, 2 ≤ --bands ≤ --n and --frames ≥ 1")
	case !(p.Width > 4*p.R) || math.IsInf(p.Width, 0):
		return badInput("shock: --width %v: want a finite width above two grains", p.Width)
	case !(p.Amplitude > 0) || !(p.Frequency > 0) || math.IsInf(p.Amplitude, 0) || math.IsInf(p.Frequency, 0):
		return badInput("shock: --amplitude and --freq must be finite and > 0")
	case !(p.Dt > 0) || !(*settle >= 0) || !(*after > 0) || math.IsInf(*settle, 0) || math.IsInf(*after, 0):
		return badInput("shock: --dt, --settle, --after: want finite times, dt and after > 0")
	}
	var names []string
	for _, n := range strings.Split(*ops, ",") {
		n = strings.TrimSpace(n)
		if _, err := shockLaw(n); err != nil {
			return err
		}
		names = append(names, n)
	}
	loose := scene.ShockGrains(p)
	grains, tset, err := shockSettle(p, loose, *settle, 0.01, stderr, *quiet)
	if err != nil {
		return fmt.Errorf("shock: settling: %w", err)
	}
	band, top := shockBands(grains, *bands)
	colors := make([]color.RGBA, len(grains))
	for i, b := range band {
		colors[i] = output.BallColor(b)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	vth := 0.05 * 2 * math.Pi * p.Frequency * p.Amplitude
	end := p.Start + 1/p.Frequency + *after
	fronts := make([]*shockFront, len(names))
	for k, name := range names {
		// Built from the loose grains (the settled pile overlaps by the
		// Alg. 4 drift of resting contacts, which a scene's validation
		// refuses), then put where they settled, at rest.
		r, err := scenario.NewBall2D(scene.ShockContainer(p, loose, true), scenario.Options{CoR: &p.CoR, Mu: &p.Mu})
		if err != nil {
			return err
		}
		for i, g := range grains {
			r.Stepper.Q[2*i], r.Stepper.Q[2*i+1], r.Stepper.V[2*i], r.Stepper.V[2*i+1] = g.X, g.Y, 0, 0
		}
		if r.Law, err = shockLaw(name); err != nil {
			return err
		}
		r.Stepper.Law = r.Law
		r.Mapping = map[string]string{"qce": "QCE-LCP (Zhang et al. eq. 19) with boxed-LCP friction (eqs. 20–21)", "gr": "GR (Smith et al. Alg. 2) with maximal-dissipation friction (Alg. 3)",
			"grr": "generalized restitution (grr) with maximal-dissipation friction (Alg. 3)"}[name]
		fronts[k] = shockFronts(r.Stepper, band, *bands, p.Start, vth)
		dir := filepath.Join(*out, name)
		res, err := runner.Run(runner.Ball2D(r), runner.Config{Out: dir, End: end, Frames: *frames, Quiet: *quiet, Progress: stderr})
		r.Close()
		if err != nil {
			return err
		}
		res.Print(stdout)
		sc, err := output.ReadScene2D(dir)
		if err != nil {
			return err
		}
		traj, err := output.ReadLayoutTrajectory(dir, sc.Layout())
		if err != nil {
			return err
		}
		info, err := output.Render2D(traj, sc, output.RenderOptions{Dir: filepath.Join(dir, "render"), Width: 800, Height: 600, FPS: 10,
			MaxFrames: *frames, Outputs: output.OutputPNG | output.OutputGIF, Colors: colors, Title: name + ": one shake"})
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "render     %s … %s, %s\n", info.PNGs[0], info.PNGs[len(info.PNGs)-1], info.GIF)
	}
	// Fronts: band k's centre height above the floor; per model the time
	// after the shake's start and the iteration within its first step.
	header := []string{"band", "height"}
	cols := [][]float64{make([]float64, *bands), make([]float64, *bands)}
	for b := 0; b < *bands; b++ {
		cols[0][b] = float64(b)
		cols[1][b] = top * (1 - (float64(b)+0.5)/float64(*bands))
	}
	var series, landing []output.Series
	for k, name := range names {
		header = append(header, "t_front_"+name, "iteration_front_"+name, "t_landing_"+name)
		it := make([]float64, *bands)
		for b := range it {
			it[b] = float64(fronts[k].Iteration[b])
		}
		cols = append(cols, fronts[k].Time, it, fronts[k].Landing)
		series = append(series, output.Series{Name: name, X: cols[1], Y: it})
		landing = append(landing, output.Series{Name: name, X: cols[1], Y: fronts[k].Landing})
	}
	if err := output.WriteColumns(filepath.Join(*out, "fronts.csv"), header, cols...); err != nil {
		return err
	}
	if err := output.PlotSeries(filepath.Join(*out, "fronts.png"), fmt.Sprintf("impact front in the shake's first step: %d grains, c = %g, mu = %g", p.N, p.CoR, p.Mu),
		"band height above the floor", "iteration (GR reflection, QCE sweep) reaching the band", series); err != nil {
		return err
	}
	if err := output.PlotSeries(filepath.Join(*out, "landing.png"), fmt.Sprintf("shock when the pile lands: %d grains, c = %g, mu = %g", p.N, p.CoR, p.Mu),
		"band height above the floor", "time from the shake's start at which the band is stopped", landing); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "settled    %d grains in %.3g time units, pile height %.4g, %d bands\n", p.N, tset, top, *bands)
	for b := *bands - 1; b >= 0; b-- {
		fmt.Fprintf(stdout, "band %-3d   height %-8.4g", b, cols[1][b])
		for k, name := range names {
			fmt.Fprintf(stdout, "  %s: iteration %-4d t %-6.4g landed %.4g", name, fronts[k].Iteration[b], fronts[k].Time[b], fronts[k].Landing[b])
		}
		fmt.Fprintln(stdout)
	}
	fmt.Fprintf(stdout, "files      %s/{fronts.csv,fronts.png,landing.png}\n", *out)
	return nil
}
