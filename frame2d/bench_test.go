package frame2d

import "testing"

// BenchmarkTower5x5 runs 1,000 position steps of the 5×5 tower.
func BenchmarkTower5x5(b *testing.B) {
	for n := 0; n < b.N; n++ {
		f, _ := Tower5x5().Framework()
		s, _ := NewSim(f, 0.005)
		var qp, maxRes float64
		var in, act, it, maxIt, above int
		for i := 0; i < 1000; i++ {
			if err := s.Step(); err != nil {
				b.Fatal(err)
			}
			qp += s.Stats.Seconds
			in += s.Stats.In
			act += s.Stats.Active
			it += s.Stats.Iterations
			maxIt = max(maxIt, s.Stats.Iterations)
			maxRes = max(maxRes, s.Stats.Residual)
			if s.Stats.Residual > 1e-12 {
				above++
			}
		}
		b.ReportMetric(qp/1000*1e3, "ms/step")
		b.ReportMetric(float64(in)/1000, "ineq/step")
		b.ReportMetric(float64(act)/1000, "active/step")
		b.ReportMetric(float64(it)/1000, "iter/step")
		b.ReportMetric(float64(maxIt), "maxiter")
		b.Logf("max dual KKT residual %.3g; %d of 1000 steps above 1e-12", maxRes, above)
		b.ReportMetric(float64(above), "steps>1e-12")
	}
}
