package main

import (
	"fmt"
	"io"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"impactsim/compliant"
	"impactsim/desiderata"
	"impactsim/impact"
	"impactsim/output"
)

// parseRange parses "lo:hi:step" (or a single value) into the sampled
// points lo, lo+step, …, ≤ hi (at most maxPoints).
func parseRange(flag, s string, maxPoints int) ([]float64, error) {
	parts := strings.Split(s, ":")
	var x [3]float64
	for i, p := range parts {
		if i >= 3 {
			return nil, badInput("--%s %q: expected lo:hi:step", flag, s)
		}
		v, err := strconv.ParseFloat(p, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, badInput("--%s %q: %q is not a finite number", flag, s, p)
		}
		x[i] = v
	}
	switch len(parts) {
	case 1:
		return []float64{x[0]}, nil
	case 3:
	default:
		return nil, badInput("--%s %q: expected lo:hi:step", flag, s)
	}
	lo, hi, step := x[0], x[1], x[2]
	if !(step > 0) || hi < lo {
		return nil, badInput("--%s %q: want lo ≤ hi and step > 0", flag, s)
	}
	n := int(math.Floor((hi-lo)/step+1e-9)) + 1
	if n > maxPoints {
		return nil, badInput("--%s %q: %d points, at most %d", flag, s, n, maxPoints)
	}
	pts := make([]float64, n)
	for i := range pts {
		pts[i] = lo + float64(i)*step
	}
	return pts, nil
}

// chainModel returns the post-impact (v_a, v_b, v_c) of the three-ball
// chain for one model: an impact operator or a compliant law.
type chainModel func(va, vc float64) ([3]float64, error)

func chainModels(list string) ([]string, []chainModel, error) {
	var names []string
	var models []chainModel
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		switch name {
		case "hertz", "linear":
			law := compliant.Hertz
			if name == "linear" {
				law = compliant.Linear
			}
			models = append(models, func(va, vc float64) ([3]float64, error) {
				return desiderata.ChainReference(va, vc, law)
			})
		default:
			op, err := impact.New(impact.Config{Name: name})
			if err != nil {
				return nil, nil, badInput("--operators: unknown model %q (operators: %s; compliant: hertz, linear)", name, strings.Join(impact.Names(), ", "))
			}
			models = append(models, func(va, vc float64) ([3]float64, error) {
				o, err := desiderata.Run(op, desiderata.ThreeBallChain(va, vc, 1))
				if err != nil {
					return [3]float64{}, err
				}
				return [3]float64{o.V[0], o.V[2], o.V[4]}, nil
			})
		}
		names = append(names, name)
	}
	return names, models, nil
}

// cmdChain is Fig. 4 of Zhang et al.: the elastic three-ball chain, B at
// rest, C moving left at vc, A moving right at each v_a⁻ of the range.
func cmdChain(args []string, stdout, _ io.Writer) error {
	fs := newFlags("chain")
	vc := fs.Float64("vc", 1, "speed of C towards B (v0 > 0)")
	vaStr := fs.String("va", "0:1:0.01", "range `LO:HI:STEP` of A's speed towards B")
	ops := fs.String("operators", "qce,gr,lcp,hertz", "comma-separated models: impact operators, hertz, linear")
	out := fs.String("out", "out/chain", "output directory")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return badInput("chain takes no arguments, got %q", pos[0])
	}
	if !(*vc > 0) || math.IsInf(*vc, 0) {
		return badInput("--vc %v: want a finite speed > 0", *vc)
	}
	vas, err := parseRange("va", *vaStr, 100001)
	if err != nil {
		return err
	}
	for _, va := range vas {
		if va < 0 {
			return badInput("--va %q: speeds must be ≥ 0", *vaStr)
		}
	}
	names, models, err := chainModels(*ops)
	if err != nil {
		return err
	}
	// Compute everything before touching the output directory.
	res := make([][][3]float64, len(models))
	for m, model := range models {
		res[m] = make([][3]float64, len(vas))
		for i, va := range vas {
			v, err := model(va, *vc)
			if err != nil {
				return fmt.Errorf("chain: %s at v_a = %g: %w", names[m], va, err)
			}
			res[m][i] = v
		}
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	header := []string{"va_minus"}
	for _, n := range names {
		header = append(header, n+"_va", n+"_vb", n+"_vc")
	}
	csvPath := filepath.Join(*out, "chain.csv")
	w, err := output.NewSeriesWriter(csvPath, header)
	if err != nil {
		return err
	}
	row := make([]float64, len(header))
	for i, va := range vas {
		row[0] = va
		for m := range models {
			copy(row[1+3*m:], res[m][i][:])
		}
		if err := w.Write(row...); err != nil {
			w.Abort()
			return err
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	x := make([]float64, len(vas))
	for i, va := range vas {
		x[i] = va / *vc
	}
	var files []string
	for b, ball := range []string{"a", "b", "c"} {
		var series []output.Series
		for m, n := range names {
			y := make([]float64, len(vas))
			for i := range vas {
				y[i] = res[m][i][b] / *vc
			}
			series = append(series, output.Series{Name: n, X: x, Y: y})
		}
		path := filepath.Join(*out, "chain_v"+ball+".png")
		title := fmt.Sprintf("three-ball chain: v_%s+ of ball %s (Zhang et al. Fig. 4)", ball, strings.ToUpper(ball))
		if err := output.PlotSeries(path, title, "v_a- / v0", "v_"+ball+"+ / v0", series); err != nil {
			return err
		}
		files = append(files, path)
	}
	fmt.Fprintf(stdout, "three-ball chain, v_c⁻ = −%g, %d values of v_a⁻ in [%g, %g]\n", *vc, len(vas), vas[0], vas[len(vas)-1])
	ref := -1
	for m, n := range names {
		if n == "hertz" {
			ref = m
		}
	}
	if ref >= 0 {
		fmt.Fprintf(stdout, "| model | max |v⁺ − v⁺_hertz|/v0 | mean |\n|---|---|---|\n")
		for m, n := range names {
			var worst, sum float64
			for i := range vas {
				d := 0.0
				for b := 0; b < 3; b++ {
					d = math.Max(d, math.Abs(res[m][i][b]-res[ref][i][b]))
				}
				worst = math.Max(worst, d / *vc)
				sum += d / *vc
			}
			fmt.Fprintf(stdout, "| %s | %.4g | %.4g |\n", n, worst, sum/float64(len(vas)))
		}
	}
	fmt.Fprintf(stdout, "wrote %s and %s\n", csvPath, strings.Join(files, ", "))
	return nil
}

// cmdCradleDisturb is Fig. 12 of Zhang et al.: Newton's cradle with random
// disturbances of size ε·v0 on the relative velocities; for every ε it
// records the spread max |v⁺ − (0, …, 0, v0)|/v0 over the samples.
func cmdCradleDisturb(args []string, stdout, _ io.Writer) error {
	fs := newFlags("cradle-disturb")
	epsStr := fs.String("eps", "1e-8:1e-2", "decade range `LO:HI` of disturbance sizes ε (relative to v0)")
	perDecade := count(fs, "per-decade", 2, 1, 1000, "values of ε per decade")
	n := count(fs, "n", 5, 2, 10000, "number of balls")
	samples := count(fs, "samples", 50, 1, 1e7, "random disturbances per ε")
	seed := fs.Int64("seed", 1, "random seed")
	ops := fs.String("operators", "qce,gr", "comma-separated impact operators")
	out := fs.String("out", "out/cradle-disturb", "output directory")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return badInput("cradle-disturb takes no arguments, got %q", pos[0])
	}
	parts := strings.Split(*epsStr, ":")
	if len(parts) != 2 {
		return badInput("--eps %q: expected lo:hi", *epsStr)
	}
	lo, err1 := strconv.ParseFloat(parts[0], 64)
	hi, err2 := strconv.ParseFloat(parts[1], 64)
	if err1 != nil || err2 != nil || !(lo > 0) || !(hi >= lo) || hi > 1 {
		return badInput("--eps %q: want 0 < lo ≤ hi ≤ 1", *epsStr)
	}
	if *perDecade < 1 || *perDecade > 100 || *n < 2 || *n > 1000 || *samples < 1 || *samples > 100000 {
		return badInput("cradle-disturb: --per-decade in 1…100, --n in 2…1000, --samples in 1…100000")
	}
	var opNames []string
	var opers []impact.Operator
	for _, name := range strings.Split(*ops, ",") {
		op, err := impact.New(impact.Config{Name: strings.TrimSpace(name)})
		if err != nil {
			return badInput("--operators: %v", err)
		}
		opNames = append(opNames, op.Name())
		opers = append(opers, op)
	}
	l0, l1 := math.Log10(lo), math.Log10(hi)
	k := int(math.Floor((l1-l0)*float64(*perDecade)+1e-9)) + 1
	logEps := make([]float64, k)
	for i := range logEps {
		logEps[i] = l0 + float64(i)/float64(*perDecade)
	}
	spread := make([][]float64, len(opers))
	for o, op := range opers {
		spread[o] = make([]float64, k)
		for i, le := range logEps {
			eps := math.Pow(10, le)
			rng := rand.New(rand.NewSource(*seed))
			var worst float64
			for s := 0; s < *samples; s++ {
				p := desiderata.DisturbedCradle(*n, 1, eps, rng)
				r, err := desiderata.Run(op, p)
				if err != nil {
					return fmt.Errorf("cradle-disturb: %s at ε = %.3g: %w", op.Name(), eps, err)
				}
				for b := 0; b < *n; b++ {
					ideal := 0.0
					if b == *n-1 {
						ideal = 1
					}
					worst = math.Max(worst, math.Abs(r.V[2*b]-ideal))
				}
			}
			spread[o][i] = worst
		}
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	header := []string{"eps"}
	for _, nm := range opNames {
		header = append(header, nm+"_spread")
	}
	csvPath := filepath.Join(*out, "cradle_disturb.csv")
	w, err := output.NewSeriesWriter(csvPath, header)
	if err != nil {
		return err
	}
	row := make([]float64, len(header))
	fmt.Fprintf(stdout, "Newton's cradle of %d balls, %d disturbances per ε: spread max|v⁺ − (0,…,0,v0)|/v0\n| ε |", *n, *samples)
	for _, nm := range opNames {
		fmt.Fprintf(stdout, " %s |", nm)
	}
	fmt.Fprintf(stdout, "\n|---|%s\n", strings.Repeat("---|", len(opNames)))
	for i, le := range logEps {
		row[0] = math.Pow(10, le)
		fmt.Fprintf(stdout, "| %.3g |", row[0])
		for o := range opers {
			row[1+o] = spread[o][i]
			fmt.Fprintf(stdout, " %.3g |", spread[o][i])
		}
		fmt.Fprintln(stdout)
		if err := w.Write(row...); err != nil {
			w.Abort()
			return err
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	var series []output.Series
	for o, nm := range opNames {
		y := make([]float64, k)
		for i := range y {
			y[i] = math.Log10(math.Max(spread[o][i], 1e-17))
		}
		series = append(series, output.Series{Name: nm, X: logEps, Y: y})
	}
	png := filepath.Join(*out, "cradle_disturb.png")
	if err := output.PlotSeries(png, fmt.Sprintf("Newton's cradle (%d balls) with disturbances (Zhang et al. Fig. 12)", *n), "log10 eps", "log10 spread of v+ / v0", series); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s and %s\n", csvPath, png)
	return nil
}
