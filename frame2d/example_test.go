package frame2d_test

import (
	"fmt"
	"strings"

	"impactsim/frame2d"
)

// A brick on a support, its centre 0.25 beyond the support's edge: the
// stability LP says it cannot stand, and the QP (Q) of the initial collapse
// says it pivots about the edge, the support's corner carrying it:
// ÿ = −g c²/(c² + I/m) = −9.81·0.0625/1.125 = −0.545.
func Example() {
	tw, err := frame2d.Parse(strings.NewReader(`
support -2 0 2 0.5 name=table
brick  -0.75 0.5 2 0.5 name=top   # centre at x = 0.25
`), "example.txt")
	if err != nil {
		panic(err)
	}
	f, err := tw.Framework()
	if err != nil {
		panic(err)
	}
	st, err := f.Stable()
	if err != nil {
		panic(err)
	}
	fmt.Println("stable:", st.Stable, "unbalanced:", f.Bodies[st.Unbalanced].Name)
	col, err := frame2d.InitialCollapse(f)
	if err != nil {
		panic(err)
	}
	a := col.BodyAcc[1]
	fmt.Printf("centre acceleration: (%.6f, %.6f)\n", a.X, a.Y)
	for _, c := range col.Contacts {
		fmt.Printf("corner %d on the edge of %s: closed %v\n", c.K, f.Bodies[c.A].Name, c.Closed)
	}
	// Output:
	// stable: false unbalanced: top
	// centre acceleration: (0.000000, -0.545000)
	// corner 4 on the edge of table: closed false
	// corner 2 on the edge of top: closed true
}
