package channelflow

import (
	"testing"

	"impactsim/par"
)

// BenchmarkChannelStep: one step of the tiny channel after 500 steps of
// flow (maximum dissipation, 10 sweeps, one worker).
func BenchmarkChannelStep(b *testing.B) {
	f, err := New(Tiny())
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 500; i++ {
		f.Step()
	}
	b.ResetTimer()
	for b.Loop() {
		f.Step()
	}
}

// BenchmarkChannelStepPaper: steps of the full channel (1.9·10⁵ spheres at
// the start) on two workers; run with -benchtime=20x.
func BenchmarkChannelStepPaper(b *testing.B) {
	f, err := New(Paper())
	if err != nil {
		b.Fatal(err)
	}
	pool := par.New(2)
	defer pool.Close()
	f.Sys.SetPool(pool)
	f.Step()
	b.ResetTimer()
	for b.Loop() {
		f.Step()
	}
}
