package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"impactsim/output"
	"impactsim/singlecontact"
)

// cmdAcademic runs `academic`: Table 1 of Preclik et al. — the six-mass
// body's maximum-dissipation impulse and every Coulomb-like solution.
func cmdAcademic(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("academic")
	out := fs.String("out", filepath.Join("out", "academic"), "output directory")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	p := singlecontact.Table1()
	type row struct {
		name string
		x    [3]float64
	}
	x, c := singlecontact.MaxDissipation(p)
	rows := []row{}
	for k, s := range singlecontact.Coulomb(p, nil) {
		rows = append(rows, row{fmt.Sprintf("x%d (Coulomb, %s)", k+1, s.Mode), s.X})
	}
	// the paper lists the Coulomb solutions by decreasing objective
	for i := range rows {
		for j := i + 1; j < len(rows); j++ {
			if p.Objective(rows[j].x) > p.Objective(rows[i].x) {
				rows[i], rows[j] = rows[j], rows[i]
			}
		}
	}
	for i := range rows {
		rows[i].name = fmt.Sprintf("x%d (Coulomb)", i+1)
	}
	rows = append(rows, row{fmt.Sprintf("x* (max. dissipation, %s)", c), x})
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	var csv strings.Builder
	csv.WriteString("solution,x_n,x_t,x_o,dv_n,dv_t,dv_o,f\n")
	fmt.Fprintf(stdout, "Preclik et al., Table 1 (six-mass body, μ = %g):\n", p.Mu)
	fmt.Fprintf(stdout, "%-32s %-36s %-36s %s\n", "solution", "x = (n, t, o)", "Ax − b", "f = ½xᵀAx − xᵀb")
	for _, r := range rows {
		v := p.Velocity(r.x)
		f := p.Objective(r.x)
		fmt.Fprintf(stdout, "%-32s (%10.7f, %10.7f, %10.7f) (%10.7f, %10.7f, %10.7f) %10.7f\n", r.name, r.x[0], r.x[1], r.x[2], v[0], v[1], v[2], f)
		fmt.Fprintf(&csv, "%q,%.12g,%.12g,%.12g,%.12g,%.12g,%.12g,%.12g\n", r.name, r.x[0], r.x[1], r.x[2], v[0], v[1], v[2], f)
	}
	fmt.Fprintf(stdout, "paper: f(x1) = −0.252, f(x2) = −0.393, f(x3) = −0.631, f(x*) = −0.634\n")
	path := filepath.Join(*out, "table1.csv")
	if err := os.WriteFile(path, []byte(csv.String()), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "output     %s\n", path)
	return nil
}

// cmdPainleve runs `painleve`: the Painlevé rod's impact (sec. 4.2) over a
// grid of angles θ and friction coefficients μ — impulsive or not, for the
// maximum-dissipation law and the Coulomb-like model — against μ*(θ).
func cmdPainleve(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("painleve")
	nTheta := count(fs, "theta", 180, 1, 100000, "number of angles θ in (0, π/2)")
	muStr := fs.String("mu", "0:4:160", "friction coefficients `LO:HI:N`")
	out := fs.String("out", filepath.Join("out", "painleve"), "output directory")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	var lo, hi float64
	var nMu int
	if n, err := fmt.Sscanf(strings.ReplaceAll(*muStr, ":", " "), "%g %g %d", &lo, &hi, &nMu); n != 3 || err != nil || !(lo >= 0) || !(hi > lo) || math.IsInf(hi, 0) || nMu < 2 {
		return badInput("painleve: --mu: expected lo:hi:N with 0 ≤ lo < hi finite and N ≥ 2, got %q", *muStr)
	}
	if *nTheta < 2 || *nTheta > 10000 || nMu > 10000 {
		return badInput("painleve: --theta and the N of --mu must lie in [2, 10000]")
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	const m, v0 = 1.0, 1.0
	h := &output.Heatmap{NX: *nTheta, NY: nMu, Data: make([]float64, *nTheta*nMu), X0: 0, X1: 90, Y0: lo, Y1: hi}
	var csv strings.Builder
	csv.WriteString("theta,mu,mu_star,md_impulsive,md_lambda_n,md_lambda_t,coulomb_solutions,coulomb_impulsive\n")
	wrong, multi := 0, 0
	var sols [8]singlecontact.Solution
	for it := 0; it < *nTheta; it++ {
		th := (float64(it) + 0.5) / float64(*nTheta) * math.Pi / 2
		ms := singlecontact.PainleveMuStar(th)
		for im := 0; im < nMu; im++ {
			mu := lo + (float64(im)+0.5)/float64(nMu)*(hi-lo)
			p := singlecontact.PainleveRod(m, th, v0, 0, mu)
			x, _ := singlecontact.MaxDissipation(p)
			imp := x != [3]float64{}
			cs := singlecontact.Coulomb(p, sols[:0])
			cimp := 0
			for _, s := range cs {
				if s.X != [3]float64{} {
					cimp = 1
				}
			}
			if len(cs) > 1 {
				multi++
			}
			if imp != (mu >= ms) {
				wrong++
			}
			v := 0.0
			if imp {
				v = 1
			}
			h.Data[im*(*nTheta)+it] = v
			fmt.Fprintf(&csv, "%.10g,%.10g,%.10g,%d,%.10g,%.10g,%d,%d\n", th, mu, ms, int(v), x[0], x[1], len(cs), cimp)
		}
	}
	if err := os.WriteFile(filepath.Join(*out, "painleve.csv"), []byte(csv.String()), 0o644); err != nil {
		return err
	}
	var cx, cy []float64
	for k := 1; k < 400; k++ {
		th := float64(k) / 400 * math.Pi / 2
		cx = append(cx, th*180/math.Pi)
		cy = append(cy, singlecontact.PainleveMuStar(th))
	}
	if err := output.WriteHeatmap(filepath.Join(*out, "painleve.png"), h, output.HeatmapOptions{
		// the plot font is ASCII only
		Title:  "Painleve rod: impact impulse (red: Lambda0, blue: none) vs mu*(theta) (black line)",
		XLabel: "theta (degrees)", YLabel: "mu", Label: "impulsive", VMin: 0, VMax: 1,
		Curves: []output.Series{{X: cx, Y: cy}},
	}); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Painlevé rod, %d × %d grid: maximum dissipation impulsive exactly where μ ≥ μ*(θ) at %d of %d points; Coulomb-like model with several solutions (0 and Λ₀) at %d points; min μ* = %.12g at θ = %.10g\n",
		*nTheta, nMu, *nTheta*nMu-wrong, *nTheta*nMu, multi, singlecontact.PainleveMuStar(math.Atan(2)), math.Atan(2))
	fmt.Fprintf(stdout, "output     %s/{painleve.csv,painleve.png}\n", *out)
	if wrong > 0 {
		return fmt.Errorf("painleve: %d grid points disagree with μ*(θ)", wrong)
	}
	return nil
}
