package par

import "testing"

func TestForEach(t *testing.T) {
	for _, workers := range []int{1, 2, 3, 8} {
		p := New(workers)
		out := make([]int, 1000)
		f := func(w, lo, hi int) {
			for i := lo; i < hi; i++ {
				out[i] += i
			}
		}
		p.For(len(out), 10, f)
		g := func(w, i int) { out[i] += 1 }
		p.Each(len(out), g)
		for i, v := range out {
			if v != i+1 {
				t.Fatalf("workers %d: out[%d] = %d", workers, i, v)
			}
		}
		if a := testing.AllocsPerRun(10, func() { p.For(len(out), 10, f); p.Each(len(out), g) }); a != 0 {
			t.Errorf("workers %d: %v allocs per run", workers, a)
		}
		p.Close()
	}
	var nilPool *Pool
	n := 0
	nilPool.For(5, 1, func(w, lo, hi int) { n += hi - lo })
	if n != 5 {
		t.Fatal(n)
	}
}
