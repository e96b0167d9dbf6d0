package output

// testTrajectory returns n frames of the 3 balls of testScene: ball 0 moves
// right along the floor, ball 1 falls, ball 2 is fixed.
func testTrajectory(n int) *Trajectory {
	tr := &Trajectory{NumBodies: 3}
	for k := 0; k < n; k++ {
		t := 0.25 * float64(k)
		tr.Frames = append(tr.Frames, Frame{
			Index: k,
			Time:  t,
			Q:     []float64{0.5 + t, 0.5, 3, 3 - t, 4.5, 1},
			V:     []float64{1, 0, 0, -1, 0, 0},
		})
	}
	return tr
}
