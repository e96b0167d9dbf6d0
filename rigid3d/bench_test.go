package rigid3d

import (
	"testing"

	"impactsim/impact"
	"impactsim/sim"
)

// BenchmarkGasStep measures one Alg. 4 step (DMV free flight twice, grid
// broad phase, box/sphere narrow phase, GR) of Gas(n) after warm steps.
func benchmarkGas(b *testing.B, n int) {
	benchmarkSystem(b, Gas(n, 1, 1), GasDt, 20, "auto")
}

func benchmarkSystem(b *testing.B, s *System, h float64, warm int, solver string) {
	op, _ := impact.New(impact.Config{Name: "gr", Solver: solver})
	st, err := sim.NewStepper(s, &sim.Staggered{Impact: op}, h, s.Q, s.V)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < warm; i++ {
		if err := st.Step(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	contacts := 0
	var det, imp, integ float64
	for i := 0; i < b.N; i++ {
		if err := st.Step(); err != nil {
			b.Fatal(err)
		}
		contacts += st.Last.Contacts
		det += st.Last.Detection.Seconds()
		imp += st.Last.Impact.Seconds()
		integ += st.Last.Integration.Seconds()
	}
	b.ReportMetric(float64(contacts)/float64(b.N), "contacts/step")
	b.ReportMetric(det/float64(b.N), "detect-s/step")
	b.ReportMetric(imp/float64(b.N), "impact-s/step")
	b.ReportMetric(integ/float64(b.N), "integrate-s/step")
}

func BenchmarkGasStep1000(b *testing.B) { benchmarkGas(b, 1000) }

// BenchmarkPile: 1,000 cubes or tori (1,040 triangles each) falling into
// an open container, gr, measured after 150 warm steps (the bottom layers
// have landed).
func benchmarkPile(b *testing.B, kind, solver string) {
	s, err := Pile(1000, kind, 0.5, 1)
	if err != nil {
		b.Fatal(err)
	}
	benchmarkSystem(b, s, PileDt, 150, solver)
}

func BenchmarkPileBoxes1000(b *testing.B)       { benchmarkPile(b, "box", "auto") }
func BenchmarkPileBoxes1000Sparse(b *testing.B) { benchmarkPile(b, "box", "sparse") }
func BenchmarkPileMeshes1000(b *testing.B)      { benchmarkPile(b, "mesh", "auto") }
