package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"impactsim/motion"
	"impactsim/output"
	"impactsim/runner"
	"impactsim/scenario"
	"impactsim/scene"
	"impactsim/sim"
)

// demonSides counts the free balls of a Maxwell's-demon scene on the left
// of the fence (x < 0); n is the number of free balls.
func demonSides(q []float64, n int) int {
	left := 0
	for i := 0; i < n; i++ {
		if q[2*i] < 0 {
			left++
		}
	}
	return left
}

// demonRecord adds to st a hook that records, every interval of time, the
// time and the number of balls on the left (from t = 0).
func demonRecord(st *sim.Stepper, n int, interval float64, t, left *[]float64) {
	every := max(1, int(math.Round(interval/st.H)))
	*t, *left = append(*t, st.T), append(*left, float64(demonSides(st.Q, n)))
	st.AddHook(sim.Hook{Name: "demon sides", End: func(st *sim.Stepper) error {
		if st.N%every == 0 {
			*t, *left = append(*t, st.T), append(*left, float64(demonSides(st.Q, n)))
		}
		return nil
	}})
}

// demonWindow returns the extremes of the left count averaged over
// windows of k samples, over the samples with time ≥ from.
func demonWindow(ts, left []float64, k int, from float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for i := 0; i+k <= len(left); i += k {
		if ts[i] < from {
			continue
		}
		var s float64
		for _, l := range left[i : i+k] {
			s += l
		}
		lo, hi = math.Min(lo, s/float64(k)), math.Max(hi, s/float64(k))
	}
	return lo, hi
}

// demonAsymmetry returns the mean of |n_left − n_right|/N over the last
// third of the record.
func demonAsymmetry(left []float64, n int) float64 {
	k := len(left) - len(left)/3
	var s float64
	for _, l := range left[k:] {
		s += math.Abs(2*l-float64(n)) / float64(n)
	}
	return s / float64(len(left)-k)
}

// demonRun steps the demon p to time end without output and returns the
// record of balls on the left (every 0.1 time units).
func demonRun(p scene.DemonParams, end float64) (t, left []float64, err error) {
	r, err := scenario.NewBall2D(scene.MaxwellDemon(p), scenario.Options{})
	if err != nil {
		return nil, nil, err
	}
	demonRecord(r.Stepper, 2*p.PerSide, 0.1, &t, &left)
	for r.Stepper.T < end-r.Stepper.H/2 {
		if err := r.Stepper.Step(); err != nil {
			return t, left, err
		}
	}
	return t, left, nil
}

// cmdDemon is the granular Maxwell's demon of Smith et al. 2012, §11.3
// (Fig. 11): one run with its run directory, the balls on each side over
// time (sides.csv, sides.png) and an animation; or, with --sweep, the
// asymmetry at the end against the shaking strength for several seeds
// (sweep.csv, sweep.png) and the measured threshold.
func cmdDemon(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("demon")
	p := scene.DefaultDemon()
	fs.Float64Var(&p.Amplitude, "amplitude", p.Amplitude, "shaking amplitude `A` in ball diameters")
	gamma := fs.Float64("gamma", 0, "shaking strength `G` = A(2πf)²/g instead of --amplitude")
	fs.Float64Var(&p.Frequency, "freq", p.Frequency, "shaking frequency `F`")
	fs.Float64Var(&p.CoR, "cor", p.CoR, "coefficient of restitution")
	fs.Float64Var(&p.Fence, "fence", p.Fence, "fence height `H` in ball diameters")
	seed := fs.Uint64("seed", 1, "seed of the initial velocities")
	end := fs.Float64("end", 150, "end time")
	out := fs.String("out", "out/demon", "output directory")
	frames := count(fs, "frames", 300, 1, 100000, "trajectory frames of a single run (and animation frames)")
	sweep := fs.String("sweep", "", "sweep the amplitude over `LO:HI:STEP` (no run directory; sweep.csv, sweep.png)")
	seeds := count(fs, "seeds", 1, 1, 1000, "seeds per amplitude of a sweep (1, 2, …)")
	quiet := fs.Bool("quiet", false, "no progress bar")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return badInput("demon takes no arguments, got %q", pos[0])
	}
	p.Seed = *seed
	switch {
	case !(p.Frequency > 0) || math.IsInf(p.Frequency, 0):
		return badInput("demon: --freq %v: want a finite frequency > 0", p.Frequency)
	case !(p.CoR >= 0 && p.CoR <= 1):
		return badInput("demon: --cor %v: want a coefficient in [0, 1]", p.CoR)
	case !(p.Fence > 2*p.R) || math.IsInf(p.Fence, 0):
		return badInput("demon: --fence %v: want a finite height above one diameter", p.Fence)
	case !(*end > 0) || math.IsInf(*end, 0):
		return badInput("demon: --end %v: want a finite time > 0", *end)
	case *frames < 1 || *seeds < 1:
		return badInput("demon: --frames and --seeds must be ≥ 1")
	case *gamma < 0 || math.IsNaN(*gamma) || math.IsInf(*gamma, 0):
		return badInput("demon: --gamma %v: want a finite value ≥ 0", *gamma)
	}
	if *gamma > 0 {
		p.Amplitude = motion.AmplitudeFromGamma(*gamma, p.Frequency, p.Gravity)
	}
	if !(p.Amplitude >= 0) || math.IsInf(p.Amplitude, 0) {
		return badInput("demon: --amplitude %v: want a finite amplitude ≥ 0", p.Amplitude)
	}
	if *sweep != "" {
		amps, err := parseRange("sweep", *sweep, 200)
		if err != nil {
			return err
		}
		return demonSweep(p, amps, *seeds, *end, *out, stdout, stderr, *quiet)
	}
	return demonSingle(p, *end, *frames, *out, stdout, stderr, *quiet)
}

func demonSingle(p scene.DemonParams, end float64, frames int, out string, stdout, stderr io.Writer, quiet bool) error {
	r, err := scenario.NewBall2D(scene.MaxwellDemon(p), scenario.Options{})
	if err != nil {
		return err
	}
	n := 2 * p.PerSide
	var ts, left []float64
	demonRecord(r.Stepper, n, 0.1, &ts, &left)
	res, err := runner.Run(runner.Ball2D(r), runner.Config{Out: out, End: end, Frames: frames, Quiet: quiet, Progress: stderr})
	if err != nil {
		return err
	}
	right := make([]float64, len(left))
	frac := make([]float64, len(left))
	for i, l := range left {
		right[i], frac[i] = float64(n)-l, l/float64(n)
	}
	if err := output.WriteColumns(filepath.Join(out, "sides.csv"), []string{"time", "left", "right", "fraction_left"}, ts, left, right, frac); err != nil {
		return err
	}
	if err := output.PlotSeries(filepath.Join(out, "sides.png"), fmt.Sprintf("Maxwell's demon: %d balls, c = %g, Gamma = %.3g, f = %g", n, p.CoR, p.Gamma(), p.Frequency),
		"time", "balls", []output.Series{{Name: "left", X: ts, Y: left}, {Name: "right", X: ts, Y: right}}); err != nil {
		return err
	}
	sc, err := output.ReadScene2D(out)
	if err != nil {
		return err
	}
	traj, err := output.ReadLayoutTrajectory(out, sc.Layout())
	if err != nil {
		return err
	}
	info, err := output.Render2D(traj, sc, output.RenderOptions{Dir: filepath.Join(out, "render"), Width: 640, Height: 480, FPS: 20,
		MaxFrames: frames, Outputs: output.OutputGIF, Title: fmt.Sprintf("Gamma = %.3g", p.Gamma())})
	if err != nil {
		return err
	}
	res.Print(stdout)
	l := left[len(left)-1]
	fmt.Fprintf(stdout, "sides      left %d, right %d at t = %g (%.1f%% left); mean |left − right|/N over the last third %.3f\n",
		int(l), n-int(l), ts[len(ts)-1], 100*l/float64(n), demonAsymmetry(left, n))
	fmt.Fprintf(stdout, "files      %s/{sides.csv,sides.png} %s\n", out, info.GIF)
	return nil
}

func demonSweep(p scene.DemonParams, amps []float64, seeds int, end float64, out string, stdout, stderr io.Writer, quiet bool) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	n := 2 * p.PerSide
	prog := output.NewProgress(io.Discard, float64(len(amps)*seeds), "")
	if !quiet {
		prog = output.NewProgress(stderr, float64(len(amps)*seeds), "demon sweep")
	}
	var ga, asym, ampCol, gamCol, seedCol, leftCol, asymCol []float64
	for k, a := range amps {
		var sum float64
		for s := 1; s <= seeds; s++ {
			q := p
			q.Amplitude, q.Seed = a, uint64(s)
			_, left, err := demonRun(q, end)
			if err != nil {
				return fmt.Errorf("demon sweep at A = %g, seed %d: %w", a, s, err)
			}
			as := demonAsymmetry(left, n)
			sum += as
			ampCol, gamCol, seedCol = append(ampCol, a), append(gamCol, q.Gamma()), append(seedCol, float64(s))
			leftCol, asymCol = append(leftCol, left[len(left)-1]), append(asymCol, as)
			prog.Update(float64(k*seeds + s))
		}
		ga, asym = append(ga, motion.Gamma(a, p.Frequency, p.Gravity)), append(asym, sum/float64(seeds))
	}
	prog.Finish()
	if err := output.WriteColumns(filepath.Join(out, "sweep.csv"), []string{"amplitude", "gamma", "seed", "left_final", "asymmetry"}, ampCol, gamCol, seedCol, leftCol, asymCol); err != nil {
		return err
	}
	if err := output.PlotSeries(filepath.Join(out, "sweep.png"), fmt.Sprintf("Maxwell's demon: mean |left − right|/N over the last third of t = %g (%d seeds)", end, seeds),
		"Gamma = A (2 pi f)^2 / g", "asymmetry", []output.Series{{Name: "asymmetry", X: ga, Y: asym}}); err != nil {
		return err
	}
	for k := range ga {
		fmt.Fprintf(stdout, "A = %-6.3g Γ = %-8.4g asymmetry %.3f\n", amps[k], ga[k], asym[k])
	}
	if gc, ok := demonThreshold(ga, asym); ok {
		fmt.Fprintf(stdout, "threshold  the balls stop clustering (asymmetry below 0.5) at Γ ≈ %.4g (A ≈ %.3g)\n", gc, motion.AmplitudeFromGamma(gc, p.Frequency, p.Gravity))
	} else {
		fmt.Fprintf(stdout, "threshold  not bracketed by the sweep (asymmetry never falls through 0.5 after exceeding it)\n")
	}
	fmt.Fprintf(stdout, "files      %s/{sweep.csv,sweep.png}\n", out)
	return nil
}

// demonThreshold returns the shaking strength at which the mean asymmetry
// last falls through 0.5 (linear interpolation), scanning up from the
// largest asymmetry.
func demonThreshold(g, a []float64) (float64, bool) {
	top := 0
	for k := range a {
		if a[k] > a[top] {
			top = k
		}
	}
	for k := top; k+1 < len(a); k++ {
		if a[k] >= 0.5 && a[k+1] < 0.5 {
			return g[k] + (a[k]-0.5)/(a[k]-a[k+1])*(g[k+1]-g[k]), true
		}
	}
	return 0, false
}
