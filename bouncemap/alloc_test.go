package bouncemap

import (
	"math/rand"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"
)

// TestAllocationFree: with a reused Workspace, Alg. 1 and the exact
// analysis allocate nothing per sample, and a map lookup allocates nothing
// per query.
func TestAllocationFree(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	b, s := randomSite(rng, 12)
	var w Workspace
	opt := Alg1Options{Dt: 0.05 / b.Omega[11]}
	w.Alg1(b, s, opt)
	w.Exact(b, s, ExactOptions{})
	w.ExactPair(b, s, b, s, ExactOptions{})
	if n := testing.AllocsPerRun(20, func() { w.Alg1(b, s, opt) }); n != 0 {
		t.Errorf("Alg1: %v allocations per sample", n)
	}
	if n := testing.AllocsPerRun(20, func() { w.Exact(b, s, ExactOptions{}) }); n != 0 {
		t.Errorf("Exact: %v allocations per sample", n)
	}
	mp, err := smallMap()
	if err != nil {
		t.Fatal(err)
	}
	mp.Prepare()
	x, n := r3.Vec{X: 0.01, Z: 0.05}, r3.Vec{X: 1}
	if a := testing.AllocsPerRun(100, func() { mp.Lookup(x, n) }); a != 0 {
		t.Errorf("Lookup: %v allocations per query", a)
	}
}
