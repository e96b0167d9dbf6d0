package compliant

import "math"

// Dormand–Prince 5(4) coefficients (Butcher tableau; the last row of a is
// the 5th-order weights, e the difference between the 5th- and 4th-order
// weights).
const (
	c2, c3, c4, c5 = 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9

	a21                     = 1.0 / 5
	a31, a32                = 3.0 / 40, 9.0 / 40
	a41, a42, a43           = 44.0 / 45, -56.0 / 15, 32.0 / 9
	a51, a52, a53, a54      = 19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729
	a61, a62, a63, a64, a65 = 9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656
	a71, a73, a74, a75, a76 = 35.0 / 384, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84

	e1, e3, e4, e5, e6, e7 = 71.0 / 57600, -71.0 / 16695, 71.0 / 1920, -17253.0 / 339200, 22.0 / 525, -1.0 / 40
)

// dopri is an adaptive Dormand–Prince 5(4) integrator of an autonomous
// system y' = f(y) with first-same-as-last stage reuse.
type dopri struct {
	f                          func(dy, y []float64)
	y, ynew, tmp               []float64
	k1, k2, k3, k4, k5, k6, k7 []float64
	steps, rejected            int
}

func newDopri(y0 []float64, f func(dy, y []float64)) *dopri {
	n := len(y0)
	mk := func() []float64 { return make([]float64, n) }
	d := &dopri{f: f, y: append([]float64(nil), y0...), ynew: mk(), tmp: mk(),
		k1: mk(), k2: mk(), k3: mk(), k4: mk(), k5: mk(), k6: mk(), k7: mk()}
	f(d.k1, d.y)
	return d
}

// step attempts one step of size h. On acceptance it advances y and
// returns true; either way it returns the proposed next step size.
func (d *dopri) step(h, rtol float64, atol []float64) (float64, bool) {
	y, t := d.y, d.tmp
	for i := range y {
		t[i] = y[i] + h*a21*d.k1[i]
	}
	d.f(d.k2, t)
	for i := range y {
		t[i] = y[i] + h*(a31*d.k1[i]+a32*d.k2[i])
	}
	d.f(d.k3, t)
	for i := range y {
		t[i] = y[i] + h*(a41*d.k1[i]+a42*d.k2[i]+a43*d.k3[i])
	}
	d.f(d.k4, t)
	for i := range y {
		t[i] = y[i] + h*(a51*d.k1[i]+a52*d.k2[i]+a53*d.k3[i]+a54*d.k4[i])
	}
	d.f(d.k5, t)
	for i := range y {
		t[i] = y[i] + h*(a61*d.k1[i]+a62*d.k2[i]+a63*d.k3[i]+a64*d.k4[i]+a65*d.k5[i])
	}
	d.f(d.k6, t)
	for i := range y {
		d.ynew[i] = y[i] + h*(a71*d.k1[i]+a73*d.k3[i]+a74*d.k4[i]+a75*d.k5[i]+a76*d.k6[i])
	}
	d.f(d.k7, d.ynew)
	var err float64
	for i := range y {
		ei := h * (e1*d.k1[i] + e3*d.k3[i] + e4*d.k4[i] + e5*d.k5[i] + e6*d.k6[i] + e7*d.k7[i])
		sc := atol[i] + rtol*math.Max(math.Abs(y[i]), math.Abs(d.ynew[i]))
		r := ei / sc
		err += r * r
	}
	err = math.Sqrt(err / float64(len(y)))
	fac := 5.0
	if err > 0 {
		fac = math.Min(5, math.Max(0.2, 0.9*math.Pow(err, -0.2)))
	}
	if err <= 1 {
		d.y, d.ynew = d.ynew, d.y
		d.k1, d.k7 = d.k7, d.k1 // first same as last
		d.steps++
		return h * fac, true
	}
	d.rejected++
	return h * math.Min(fac, 0.9), false
}
