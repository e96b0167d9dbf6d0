// Package parity compares impactsim with SCISim, the reference C++
// implementation of Smith et al. 2012, scene by scene.
//
// A reference state is the final generalized position q and velocity v
// that one of SCISim's command-line programs (ball2d_cli, rigidbody2d_cli,
// rigidbody3d_cli) writes after running a scene to an end time, in SCISim's
// own layout, stored as a small text file next to the scene in testdata
// together with the SCISim commit that produced it (State, ReadState,
// WriteState). Simulate runs the same scene for the same number of steps
// with impactsim and returns its state in that layout; Compare measures the
// difference.
//
// # Layouts (SCISim's, for N bodies)
//
//	ball2d:      q = (x₁, y₁, …, x_N, y_N),  v = (vx₁, vy₁, …)
//	rigidbody3d: q = (x₁, …, x_N, R₁, …, R_N), v = (u₁, …, u_N, ω₁, …, ω_N)
//
// where x and u are centre-of-mass positions and velocities (3 numbers),
// R the body → world rotation matrix in row-major order (9 numbers) and ω
// the world-frame angular velocity. impactsim's rigid bodies store a unit
// quaternion instead of R; Simulate converts.
//
// # Agreement
//
// Compare returns, separately for q and v, the relative error
//
//	e = ‖x − x_ref‖∞ / max(1, ‖x_ref‖∞),
//
// i.e. relative to the largest entry, and absolute for states whose entries
// are all below one. The parity table (parity_test.go) requires e ≤ 1e-9
// unless an entry states otherwise.
//
// # Reference file format
//
// Plain text, one item per line:
//
//	# free comment lines
//	system rigidbody3d
//	scene rigidbody3d/tests_serialization/one_dim_test_2.xml
//	scisim f9990a7c9e9ce395aa3345dd830157e17810d7c0
//	command rigidbody3d_cli one_dim_test_2.xml -e 2 -o DIR -f 0
//	end 2
//	iteration 200
//	time 2
//	q 36
//	-10
//	… (36 numbers, one per line, %.17g)
//	v 18
//	… (18 numbers)
//
// # Regenerating the references
//
// With SCISim's command-line programs built (their build directory holding
// ball2dcli/ball2d_cli, rigidbody2dcli/rigidbody2d_cli and
// rigidbody3dcli/rigidbody3d_cli) and h5dump (Debian package hdf5-tools) on
// PATH,
//
//	go test ./parity -run TestParity -scisim /path/to/scisim/build
//
// runs each scene of the table with SCISim (RunSCISim: the program with
// -e END -o DIR, then h5dump of the last HDF5 frame) and rewrites the
// reference files; -scisim-commit names the commit the binaries were built
// from.
package parity
