package patterns

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"time"

	"impactsim/output"
	"impactsim/spheres"
)

// RunOptions says how long Run shakes the layer and what it writes.
type RunOptions struct {
	// Cycles is the number of drive periods to simulate (from now).
	Cycles float64
	// SampleEvery is the number of drive periods between samples of the
	// height field (0: 1); samples are taken at the drive phase 0 (the
	// floor at its mean height, rising).
	SampleEvery float64
	// Dir, when set, receives series.csv (a row per sample, written as the
	// run goes) and, at the end, top.png, side.png, spectrum.png and
	// top.gif (the sampled height fields as an animation).
	Dir string
	// Progress, when set, gets a progress bar.
	Progress io.Writer
	// Checkpoint, when set, is called after every sample and at the end of
	// the run (impactsim patterns --save-state writes the layer's state
	// there, so a long run can be continued with --resume); its error stops
	// the run.
	Checkpoint func() error
}

// Sample is the pattern analysis at one sampling time.
type Sample struct {
	Time, Cycles float64
	Pattern
	// LambdaOverH is λ/H; MeanHeight the centres' mean height above the
	// floor (σ).
	LambdaOverH, MeanHeight float64
	// Shell is the shell measure of the same moment (GridField, Shells;
	// package documentation, "The shell measure"), ShellLambdaOverH its
	// λ/H.
	Shell            ShellPattern
	ShellLambdaOverH float64
	// Exact is the exact measure of the same spectrum (Spectrum.Exact;
	// package documentation, "The exact measure"), ExactLambdaOverH its
	// λ/H.
	Exact            ExactPattern
	ExactLambdaOverH float64
}

// StepCost sums the per-step statistics of a run (package spheres).
type StepCost struct {
	Steps                                int
	Wall, Integrate, Detect, Solve       time.Duration
	Impact, Friction                     time.Duration
	Contacts, MaxContacts, MaxIterations int
	MaxWallPenetration                   float64 // σ
	// Correction is the position correction's time, Passes its
	// projections and Missed the contacts its search found (all summed),
	// MaxOverlap the deepest overlap it left (σ).
	Correction     time.Duration
	Passes, Missed int
	MaxOverlap     float64
	// Rounds sums the law's solves per step (spheres.ImpactStats.Rounds:
	// 1 a step unless Config.ActiveRounds closes the active set),
	// MaxRounds is the most in one step and Open counts the steps whose
	// set was still growing at the cap.
	Rounds, MaxRounds, Open int
}

// Result is what Run measured.
type Result struct {
	Samples  []Sample
	Field    HeightField
	Spectrum Spectrum
	Cost     StepCost
}

// seriesHeader is the header of series.csv (package documentation).
var seriesHeader = []string{"time", "cycles", "lambda_sigma", "lambda_over_H", "dispersion_lambda_over_H", "peaks", "contrast", "mean_height_sigma",
	"shell_lambda_sigma", "shell_lambda_over_H", "shell_symmetry", "shell_q2", "shell_q4", "shell_q6", "shell_contrast_sigma",
	"exact_lambda_sigma", "exact_lambda_over_H", "exact_peaks", "exact_m", "exact_n", "exact_contrast", "exact_triads"}

// Run shakes the layer for o.Cycles periods (rounded up to whole steps),
// sampling the height field at
// the drive phase 0 every o.SampleEvery periods (package documentation,
// "Analysis"). It stops at the first failed step with the samples so far.
func (y *Layer) Run(o RunOptions) (Result, error) {
	var res Result
	c := &y.Cfg
	every := o.SampleEvery
	if every <= 0 {
		every = 1
	}
	if !(o.Cycles > 0) || math.IsInf(o.Cycles, 0) {
		return res, fmt.Errorf("patterns: %v cycles, want a positive number", o.Cycles)
	}
	f := c.Frequency()
	// The step count rounded up (less a hair for the quotient's rounding):
	// the run ends at or just past o.Cycles periods, so the sample due at
	// the end is taken.
	steps := int(math.Ceil(o.Cycles/f/c.H - 1e-6))
	var csv *output.SeriesWriter
	if o.Dir != "" {
		var err error
		if csv, err = output.NewLiveSeriesWriter(filepath.Join(o.Dir, "series.csv"), seriesHeader); err != nil {
			return res, err
		}
	}
	var bar *output.Progress
	if o.Progress != nil {
		bar = output.NewProgress(o.Progress, float64(steps), fmt.Sprintf("%s, %d spheres", c.Point.Name, c.N))
	}
	lastSample := math.Floor(y.Cycles()/every + 1e-9)
	var frames []*output.Heatmap
	var titles []string
	var err error
	for k := 0; k < steps; k++ {
		t0 := time.Now()
		var st spheres.ImpactStats
		if st, err = y.Step(); err != nil {
			break
		}
		res.Cost.add(st, time.Since(t0), c.Sigma)
		if bar != nil {
			bar.Update(float64(k + 1))
		}
		if s := math.Floor(y.Cycles()/every + 1e-9); s > lastSample {
			lastSample = s
			var here bool
			if here, err = y.sync(); err != nil {
				break
			}
			if !here {
				continue
			}
			smp, h := y.sample()
			if o.Dir != "" {
				frames = append(frames, &output.Heatmap{NX: h.NX, NY: h.NY, Data: h.Z, X1: h.LX / c.Sigma, Y1: h.LY / c.Sigma})
				titles = append(titles, fmt.Sprintf("%s: t = %.3f s (%.1f cycles), lambda = %.1f sigma, %d peaks", c.Point.Name, smp.Time, smp.Cycles, smp.Lambda, smp.Peaks))
			}
			res.Samples = append(res.Samples, smp)
			if csv != nil {
				if err = csv.Write(smp.Time, smp.Cycles, smp.Lambda, smp.LambdaOverH, Dispersion(c.Point.FStar), float64(smp.Peaks), smp.Contrast, smp.MeanHeight,
					smp.Shell.Lambda, smp.ShellLambdaOverH, float64(smp.Shell.Symmetry()), smp.Shell.Q2, smp.Shell.Q4, smp.Shell.Q6, smp.Shell.Contrast,
					smp.Exact.Lambda, smp.ExactLambdaOverH, float64(smp.Exact.Peaks), float64(smp.Exact.M), float64(smp.Exact.N), smp.Exact.Contrast, float64(smp.Exact.Triads)); err != nil {
					break
				}
			}
			if o.Checkpoint != nil {
				if err = o.Checkpoint(); err != nil {
					break
				}
			}
		}
	}
	here := true
	if err == nil {
		here, err = y.sync()
	}
	if err == nil && here && o.Checkpoint != nil {
		err = o.Checkpoint()
	}
	if bar != nil {
		bar.Finish()
	}
	if !here {
		return res, err
	}
	res.Field = y.HeightField()
	res.Spectrum = res.Field.Spectrum()
	if csv != nil {
		if cerr := csv.Close(); err == nil {
			err = cerr
		}
	}
	if o.Dir != "" {
		if werr := y.WritePictures(o.Dir, &res.Field, &res.Spectrum); err == nil {
			err = werr
		}
		if len(frames) > 0 {
			// one colour scale for every frame: up to twice the layer depth
			opt := output.HeatmapOptions{XLabel: "x / sigma", YLabel: "y / sigma", Label: "top height / sigma", VMin: 0, VMax: 2*c.Depth + 1}
			if werr := output.WriteHeatmapGIF(filepath.Join(o.Dir, "top.gif"), frames, titles, opt, 4); err == nil {
				err = werr
			}
		}
	}
	return res, err
}

func (c *StepCost) add(st spheres.ImpactStats, wall time.Duration, sigma float64) {
	c.Steps++
	c.Wall += wall
	c.Integrate += st.Integrate
	c.Detect += st.Detect
	c.Solve += st.Solve
	c.Impact += st.Impact
	c.Friction += st.Friction
	c.Contacts += st.Contacts
	c.MaxContacts = max(c.MaxContacts, st.Contacts)
	c.MaxIterations = max(c.MaxIterations, st.MaxIslandIterations)
	c.MaxWallPenetration = math.Max(c.MaxWallPenetration, st.MaxWallPenetration/sigma)
	c.Correction += st.Correction.Time
	c.Passes += st.Correction.Passes
	c.Missed += st.Correction.Missed
	c.MaxOverlap = math.Max(c.MaxOverlap, st.Correction.Overlap/sigma)
	c.Rounds += st.Rounds
	c.MaxRounds = max(c.MaxRounds, st.Rounds)
	if st.Open {
		c.Open++
	}
}

// sync brings the whole state into Sys (Layer.Remote; nothing to do
// without one) and reports whether this process analyses and writes it.
func (y *Layer) sync() (bool, error) {
	if y.Remote == nil {
		return true, nil
	}
	return y.Remote.Sync(y.Sys)
}

// sample analyses the height field now, with the three measures (Measure).
func (y *Layer) sample() (Sample, HeightField) {
	h := y.HeightField()
	return y.Measure(&h), h
}

// Measure returns the layer's sample now under the three measures: the
// spectrum's ring (Spectrum.Analyze of h, the layer's HeightField), the
// shell measure (Shells of GridField) and the exact measure
// (Spectrum.Exact of h's spectrum).
func (y *Layer) Measure(h *HeightField) Sample {
	sp := h.Spectrum()
	p := sp.Analyze(y.Cfg.Sigma, y.Cfg.Depth)
	g := y.GridField()
	sh := g.Shells(y.Cfg.Sigma)
	ex := sp.Exact(y.Cfg.Sigma, y.Cfg.Depth)
	return Sample{Time: y.Time(), Cycles: y.Cycles(), Pattern: p, LambdaOverH: p.Lambda / y.Cfg.Depth, MeanHeight: y.MeanHeight(),
		Shell: sh, ShellLambdaOverH: sh.Lambda / y.Cfg.Depth, Exact: ex, ExactLambdaOverH: ex.Lambda / y.Cfg.Depth}
}

// WritePictures writes top.png (the height field, heights coloured),
// side.png (the spheres of a slab 4σ thick through the middle of the cell,
// seen along y, coloured by height) and spectrum.png (log₁₀ of the power
// spectrum with the dispersion relation's ring) into dir.
func (y *Layer) WritePictures(dir string, h *HeightField, sp *Spectrum) error {
	c := &y.Cfg
	lx, ly := c.Sides()
	l := lx / c.Sigma
	// ASCII labels: the plots' bitmap font has no Greek letters
	title := fmt.Sprintf("%s: f* = %.2f, Gamma = %.2f, %d spheres, h = %g s, t = %.3f s (%.1f cycles)", c.Point.Name, c.Point.FStar, c.Point.Gamma, c.N, c.H, y.Time(), y.Cycles())
	if err := output.WriteHeatmap(filepath.Join(dir, "top.png"), &output.Heatmap{NX: h.NX, NY: h.NY, Data: h.Z, X0: 0, X1: l, Y0: 0, Y1: ly / c.Sigma},
		output.HeatmapOptions{Title: title, XLabel: "x / sigma", YLabel: "y / sigma", Label: "top height / sigma"}); err != nil {
		return err
	}
	// side view, cells of σ/2
	nx := max(4, int(2*l))
	zmax := 0.0
	f := y.FloorHeight()
	s := y.Sys
	for i := 0; i < s.N(); i++ {
		zmax = math.Max(zmax, (s.X[3*i+2]-f)/c.Sigma)
	}
	nz := max(2, int(math.Ceil(2*(zmax+1))))
	side := make([]float64, nx*nz)
	for k := range side {
		side[k] = math.NaN()
	}
	mid := ly / 2
	for i := 0; i < s.N(); i++ {
		if math.Abs(s.X[3*i+1]-mid) > 2*c.Sigma {
			continue
		}
		z := (s.X[3*i+2] - f) / c.Sigma
		ix := min(nx-1, max(0, int(s.X[3*i]/lx*float64(nx))))
		iz := min(nz-1, max(0, int(z/(zmax+1)*float64(nz))))
		side[iz*nx+ix] = z
	}
	if err := output.WriteHeatmap(filepath.Join(dir, "side.png"), &output.Heatmap{NX: nx, NY: nz, Data: side, X0: 0, X1: l, Y0: 0, Y1: zmax + 1},
		output.HeatmapOptions{Title: title + ", slab |y - L/2| < 2 sigma", XLabel: "x / sigma", YLabel: "height above the floor / sigma", Label: "centre height / sigma"}); err != nil {
		return err
	}
	// spectrum
	lp := make([]float64, len(sp.P))
	top := 0.0
	for _, p := range sp.P {
		top = math.Max(top, p)
	}
	for k, p := range sp.P {
		lp[k] = math.Log10(math.Max(p, 1e-12*top) + 1e-300)
	}
	// the ring, in units of 2π/L_x along x and 2π/L_y along y
	kx, ky := l/(Dispersion(c.Point.FStar)*c.Depth), ly/c.Sigma/(Dispersion(c.Point.FStar)*c.Depth)
	var ring output.Series
	for a := 0; a <= 128; a++ {
		th := 2 * math.Pi * float64(a) / 128
		ring.X = append(ring.X, kx*math.Cos(th))
		ring.Y = append(ring.Y, ky*math.Sin(th))
	}
	lox, loy := -float64(sp.NX/2)-0.5, -float64(sp.NY/2)-0.5
	return output.WriteHeatmap(filepath.Join(dir, "spectrum.png"), &output.Heatmap{NX: sp.NX, NY: sp.NY, Data: lp, X0: lox, X1: lox + float64(sp.NX), Y0: loy, Y1: loy + float64(sp.NY)},
		output.HeatmapOptions{Title: "power spectrum of the height field (ring: lambda/H = 1 + 1.1 f*^-1.32)", XLabel: "k_x L_x / 2 pi", YLabel: "k_y L_y / 2 pi", Label: "log10 power", Curves: []output.Series{ring}})
}
