// Package script runs SCISim's scripted scenes: the Python callbacks a
// scene names with <scripting callback="NAME"/> (the module NAME.py beside
// the scene file), on go.starlark.net, an embedded pure-Go interpreter of
// Starlark, a dialect of Python.
//
// # Callbacks
//
// The simulation calls the script's functions as SCISim does: startOfSim
// once before the run; startOfStep before every step (nextIteration() is
// the number of the step being taken, so nextIteration()·timestep() is the
// time at its end, where SCISim's scripts place their planes);
// restitutionCoefficient and frictionCoefficient once the step's contacts
// are known (cor() and mu() are that step's per-contact coefficients, to
// be changed in place); endOfStep after the step. A function the script
// does not define is not called. endOfSim is refused (the run loop has no
// end-of-run hook).
//
// # The modules
//
// A ball2d scene's script sees the module balls2d, a rigidbody2d scene's
// rigidbody2d, a rigidbody3d scene's rigidbody3d, with SCISim's functions
// (see Balls2D, RigidBody2D and RigidBody3D for the lists): time step and iteration, configuration() and velocity()
// (arrays over the state, writable as SCISim's numpy views), static
// planes (and, in 3D, cylinders) moved by setStaticPlanePosition and
// setStaticPlaneVelocity (setStaticCylinderOrientation and
// setStaticCylinderAngularVelocity; in rigidbody2d setStaticPlaneNormal and
// setStaticPlaneAngularVelocity), balls inserted (insertBall) and planes
// deleted (deleteStaticPlane) in 2D, rigid bodies and circle geometry
// added and deleted in rigidbody2d (addBody, addCircleGeometry,
// delete_bodies, delete_geometry), the contacts of the step
// (numCollisions, collisionType, collisionIndices) and their coefficients
// cor() and mu(). A moved plane's velocity enters the contacts as the
// moving geometry of package mech (NRel/DRel): restitution and friction
// act on velocities relative to it. Also predeclared: math
// (go.starlark.net/lib/math: sin, cos, pi, …), numpy (pi, sin, cos,
// sqrt, arange over integers with dtype uint32, int32 or int64), sys
// (exit). A script that uses a function of these modules that
// impactsim does not provide is refused when loaded, with its line.
//
// # Python accepted
//
// Starlark is Python's syntax without classes, exceptions, import,
// assert, global or while-less restrictions; top-level if/for, while,
// reassigned globals and recursion are allowed here. Before compiling,
// each line is rewritten, keeping line numbers:
//
//	import a, b           →  (blank: the modules are predeclared)
//	assert cond[, msg]    →  assert_(cond[, msg])
//	print x, y            →  print(x, y)           (Python 2's print statement)
//	raise E(msg)          →  fail(E(msg))          (ValueError, RuntimeError, Exception give "Name: msg")
//
// "from m import x" and modules other than the system's, math, numpy and
// sys are refused with the line.
//
// # Errors
//
// Every error is one line naming the script and its line: a syntax error,
// an unknown module or function, a failed assert, fail/raise, sys.exit, a
// wrong argument (a plane index that does not exist, a non-finite
// position, a coefficient outside its range):
//
//	oscillating_box.py:17: balls2d.setStaticPlanePosition: plane index 7 out of range [0, 4) (in startOfStep)
//
// Errors while loading (and in startOfSim) come before the run; errors in
// a step's callbacks stop the run at that step (the run loop saves the
// last good state).
package script
