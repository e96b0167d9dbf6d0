package scenario

import (
	"testing"

	"impactsim/scene"
)

// benchmarkDrum measures one Alg. 4 step (free flight, detection, GR,
// free flight) on the Table 2 drum with n balls, after warm steps.
func benchmarkDrum(b *testing.B, n int, mode string, warm int) {
	r, err := NewBall2D(scene.DrumGrid(n, mode, 1), Options{Operator: "gr"})
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < warm; i++ {
		if err := r.Stepper.Step(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	contacts := 0
	for i := 0; i < b.N; i++ {
		if err := r.Stepper.Step(); err != nil {
			b.Fatal(err)
		}
		contacts += r.Stepper.Last.Contacts
	}
	b.ReportMetric(float64(contacts)/float64(b.N), "contacts/step")
}

func BenchmarkStepGas1000(b *testing.B)  { benchmarkDrum(b, 1000, "gas", 10) }
func BenchmarkStepDrop1000(b *testing.B) { benchmarkDrum(b, 1000, "drop", 700) }
func BenchmarkStepGas10000(b *testing.B) { benchmarkDrum(b, 10000, "gas", 10) }
