package mech

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// sliceRel is a KnownRel over slices (as a system's records would give
// the values).
type sliceRel struct{ n, d []float64 }

func (r sliceRel) NRel(i int) float64 { return r.n[i] }
func (r sliceRel) DRel(k int) float64 { return r.d[k] }
func (r sliceRel) AddNRel(dst []float64, lo, hi int) {
	for i := lo; i < hi; i++ {
		dst[i-lo] += r.n[i]
	}
}

// TestKnownRelAccessors: a problem whose known relative velocities are
// given matrix-free (Known) reads them, through every accessor, bit for
// bit as the stored NRel and DRel; without any, AddNRel adds nothing (a
// −0 stays −0); Validate refuses both forms at once, and NeedStoredRel
// refuses Known.
func TestKnownRelAccessors(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	st := randomProblem(rng, 12, 3, 30)
	m := st.NContacts()
	st.D = st.G
	for k := range m {
		st.DContact = append(st.DContact, k)
	}
	st.NRel, st.DRel = make([]float64, m), make([]float64, m)
	for i := range st.NRel {
		st.NRel[i], st.DRel[i] = rng.NormFloat64(), rng.NormFloat64()
	}
	fr := *st
	fr.NRel, fr.DRel, fr.Known = nil, nil, sliceRel{st.NRel, st.DRel}
	if err := st.NeedStoredRel("x"); err != nil {
		t.Fatal(err)
	}
	if err := fr.NeedStoredRel("x"); err == nil || !strings.Contains(err.Error(), "matrix-free") {
		t.Fatalf("NeedStoredRel on Known: %v", err)
	}
	same := func(what string, stored, free []float64) { t.Helper(); sameBits(t, what, free, stored) }
	ua, ub := make([]float64, m), make([]float64, m)
	st.RelNormalVelocities(ua, st.V)
	fr.RelNormalVelocities(ub, fr.V)
	same("u", ua, ub)
	st.RelNormalVelocitiesRange(ua[:7], st.V, 5, 12)
	fr.RelNormalVelocitiesRange(ub[:7], fr.V, 5, 12)
	same("u[5:12]", ua[:7], ub[:7])
	st.RelTangentVelocities(ua, st.V)
	fr.RelTangentVelocities(ub, fr.V)
	same("w", ua, ub)
	lambda, beta := make([]float64, m), make([]float64, m)
	for i := range lambda {
		lambda[i], beta[i] = rng.Float64(), rng.NormFloat64()
	}
	if a, b := st.RelWork(lambda, beta), fr.RelWork(lambda, beta); math.Float64bits(a) != math.Float64bits(b) {
		t.Fatalf("RelWork %v, stored %v", b, a)
	}
	if !fr.HasRel() || !fr.HasNRel() || !fr.HasDRel() {
		t.Fatal("Known not seen by HasRel, HasNRel, HasDRel")
	}
	for i := range m {
		if fr.NRelAt(i) != st.NRel[i] || fr.DRelAt(i) != st.DRel[i] {
			t.Fatalf("NRelAt/DRelAt(%d) differ", i)
		}
	}
	both := fr
	both.NRel = st.NRel
	if err := both.Validate(); err == nil {
		t.Error("Validate accepted NRel both stored and Known")
	}

	none := *st
	none.NRel, none.DRel = nil, nil
	if none.HasNRel() || none.HasDRel() {
		t.Fatal("HasNRel/HasDRel without known velocities")
	}
	z := []float64{math.Copysign(0, -1)}
	none.AddNRel(z, 0, 1)
	if !math.Signbit(z[0]) {
		t.Fatal("AddNRel without known velocities changed −0")
	}
}
