package output_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"impactsim/output"
)

func ExampleNewTrajectoryWriter() {
	dir, _ := os.MkdirTemp("", "run")
	defer os.RemoveAll(dir)

	w, err := output.NewTrajectoryWriter(dir)
	if err != nil {
		panic(err)
	}
	// Two balls: q = (x0, y0, x1, y1), v = (vx0, vy0, vx1, vy1).
	w.WriteFrame(0, 0, []float64{0, 1, 2, 1}, []float64{1, 0, 0, 0})
	w.WriteFrame(10, 0.1, []float64{0.1, 1, 2, 1}, []float64{1, 0, 0, 0})
	if err := w.Close(); err != nil {
		panic(err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, output.TrajectoryFile))
	fmt.Print(string(data))

	tr, err := output.ReadTrajectory(dir)
	if err != nil {
		panic(err)
	}
	fmt.Println(tr.NumBodies, "balls,", len(tr.Frames), "frames; last time", tr.Frames[1].Time, "q", tr.Frames[1].Q)
	// Output:
	// frame,time,ball,x,y,vx,vy
	// 0,0,0,0,1,1,0
	// 0,0,1,2,1,0,0
	// 10,0.1,0,0.1,1,1,0
	// 10,0.1,1,2,1,0,0
	// 2 balls, 2 frames; last time 0.1 q [0.1 1 2 1]
}

func ExampleReadTrajectory_malformed() {
	dir, _ := os.MkdirTemp("", "run")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "trajectory.csv"), []byte("frame,time,ball,x,y,vx,vy\n0,0,0,1,2,3,4\n0,0,1,1,oops,3,4\n"), 0o644)

	_, err := output.ReadTrajectory(dir)
	fmt.Println(strings.ReplaceAll(err.Error(), dir, "DIR"))
	// Output:
	// output: DIR/trajectory.csv:3: bad y "oops"
}

func ExampleNewSeriesWriter() {
	dir, _ := os.MkdirTemp("", "run")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, output.EnergyFile)

	w, err := output.NewSeriesWriter(path, output.EnergyHeader)
	if err != nil {
		panic(err)
	}
	// step, time, kinetic, potential, total, px, py, contacts, impact_iterations, seconds, capped, residual, wall_work,
	// overlap, correction_pe, correction_passes, redetect_rounds, redetect_added, redetect_missing
	w.Write(0, 0, 0.5, 9.81, 10.31, 1, 0, 0, 0, 0.00012, 0, 0, 0, 0, 0, 0, 0, 0, 0)
	w.Write(1, 0.001, 0.5196, 9.7904, 10.31, 1, -0.0098, 1, 3, 0.00015, 0, 2.5e-13, 0, 2.5e-7, 4.9e-6, 1, 0, 0, 0)
	if err := w.Close(); err != nil {
		panic(err)
	}
	data, _ := os.ReadFile(path)
	fmt.Print(string(data))
	// Output:
	// step,time,kinetic,potential,total,px,py,contacts,impact_iterations,seconds,capped,residual,wall_work,overlap,correction_pe,correction_passes,redetect_rounds,redetect_added,redetect_missing
	// 0,0,0.5,9.81,10.31,1,0,0,0,0.00012,0,0,0,0,0,0,0,0,0
	// 1,0.001,0.5196,9.7904,10.31,1,-0.0098,1,3,0.00015,0,2.5e-13,0,2.5e-07,4.9e-06,1,0,0,0
}

func ExampleWriteScene2D() {
	dir, _ := os.MkdirTemp("", "run")
	defer os.RemoveAll(dir)

	err := output.WriteScene2D(dir, &output.Scene2D{
		NumBalls:    2,
		Radii:       []float64{0.1, 0.1},
		Masses:      []float64{1, 0},
		Fixed:       []bool{false, true},
		Planes:      []output.Plane2D{{Point: [2]float64{0, 0}, Normal: [2]float64{0, 1}}},
		Dt:          0.001,
		Operator:    "gr",
		SourceScene: "scenes/drop.json",
	})
	if err != nil {
		panic(err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, output.SceneFile))
	fmt.Print(string(data))
	// Output:
	// {
	//   "format": "impactsim-scene2d",
	//   "version": 1,
	//   "num_balls": 2,
	//   "radii": [
	//     0.1,
	//     0.1
	//   ],
	//   "masses": [
	//     1,
	//     0
	//   ],
	//   "fixed": [
	//     false,
	//     true
	//   ],
	//   "planes": [
	//     {
	//       "point": [
	//         0,
	//         0
	//       ],
	//       "normal": [
	//         0,
	//         1
	//       ]
	//     }
	//   ],
	//   "drums": [],
	//   "dt": 0.001,
	//   "operator": "gr",
	//   "source_scene": "scenes/drop.json"
	// }
}

func ExampleNewProgressOptions() {
	// A fake clock advancing one second per update; Lines mode as when
	// stderr is redirected to a file.
	now := time.Unix(0, 0)
	clock := func() time.Time { return now }
	p := output.NewProgressOptions(os.Stdout, 10, "simulate", output.ProgressOptions{Now: clock, Mode: output.ProgressLines})
	for step := 1; step <= 10; step++ {
		now = now.Add(time.Second)
		p.Update(float64(step))
	}
	p.Finish()
	// Output:
	// simulate  20% 2.0s elapsed, ETA 8.0s
	// simulate  30% 3.0s elapsed, ETA 7.0s
	// simulate  40% 4.0s elapsed, ETA 6.0s
	// simulate  50% 5.0s elapsed, ETA 5.0s
	// simulate  60% 6.0s elapsed, ETA 4.0s
	// simulate  70% 7.0s elapsed, ETA 3.0s
	// simulate  80% 8.0s elapsed, ETA 2.0s
	// simulate  90% 9.0s elapsed, ETA 1.0s
	// simulate 100% done in 10.0s
}
