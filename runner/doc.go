// Package runner is the one run driver of impactsim: it advances any
// system's collision integrator (sim.Stepper, Alg. 4 of Smith et al. 2012)
// from t = 0 to an end time and writes the run directory, the same way for
// 2D balls, 3D rigid bodies and every system to come.
//
// A system enters through the small System interface: its stepper, its
// trajectory layout (output.Layout), its static scene description, its
// energy and linear momentum, and its VTK frames. Ball2D and Rigid3D adapt
// the scenario package's runnable scenes; everything else is the driver's:
//
//   - files of an earlier run in the directory are removed
//     (output.ClearRunDir); the scene description is written first
//     (scene.json for balls, scene3d.json for 3D bodies), then
//     summary.json with status "running", then trajectory.csv and
//     energy.csv stream in place as the run goes (one write per frame and
//     per row: a killed run leaves whole frames, see package output) and,
//     with Config.VTK, the VTK frames with vtk/trajectory.pvd rewritten at
//     each; summary.json is rewritten at every frame (at least every
//     10 s) and at the end with status "complete" or "failed";
//   - frames are saved every ⌊steps/Frames⌋ steps, at t = 0 and at the
//     last state reached;
//   - energy.csv gets the initial state and one row per step (columns
//     output.EnergyColumns: energies, momentum, contacts, operator iterations,
//     seconds, the contact law's capped solves and residual, and the
//     position correction's record: the step's deepest overlap, the
//     potential energy the correction added and its passes);
//   - summary.json and Summary.Print report the run.
//
// # Iterative laws with user-set caps
//
// Some contact laws iterate to a tolerance under an iteration cap that the
// scene sets (SCISim's sobogus_friction_solver: max_iters, tol,
// eval_every; the Coulomb Gauss–Seidel of package friction). Reaching the
// cap is not an error there, as in SCISim, whose so-bogus solve reports
// "exceeded max iterations … with absolute error …" and goes on: the law
// returns its answer at the cap (friction.Coulomb: the best evaluated
// iterate, as so-bogus) and counts the solve in mech.Stats.Capped with
// its residual. The driver records it per step (energy.csv columns capped
// and residual), in the summary (capped_steps, first_capped_step,
// worst_capped_residual, capped_tolerance) and in Summary.Warning, one line
// for the whole run. With Config.Strict the first capped step is an error
// instead (a *mech.CapError): the run stops there with the last good state
// saved as the final frame.
//
// # Overlap and the position correction
//
// Every run measures the deepest overlap at each step's end
// (sim.Stepper.MeasureOverlap: when the scene has no position correction,
// a stage that only evaluates the gaps of the step's contacts and of those
// the step missed; the states are bitwise those without it). With the
// correction on (sim.Correction), the summary also counts the steps it
// projected (corrected_steps), sums the potential energy it added
// (correction_energy) and counts the steps it left above its tolerance at
// its pass cap (correction_capped_steps; Summary.Warning says so, and
// Config.Strict makes such a step an error). Systems that cannot evaluate
// their gaps (rigid2d) write NaN in the overlap column and no max_overlap.
//
// # Errors
//
// The scene and options are validated when the System is built, so bad
// input never reaches the loop: Run itself refuses, before writing
// anything, an end time that is not a count of steps (Steps: at least one,
// at most 2⁵³) and an initial state or energy that is not finite, with an
// *InputError. Every step's new state is checked (sim.Stepper.Check): the
// first NaN or ±Inf coordinate, or a non-finite energy, refuses the step,
// and the run stops naming the step, the body and the quantity (an
// operator that blows up, as Jacobi on eight cubes). An error during the
// run (a solver that fails, a strict cap, a non-finite state, a file that
// cannot be written — a full disk is met at the step's own write) stops
// the loop at once; the last good state is saved as the final frame, the
// error is recorded in summary.json (status "failed") and returned with the
// directory named.
//
// # Distributed systems
//
// A System that is also a Distributed (a ball scene under mpirun,
// cmd/impactsim) keeps its state on several processes: the driver takes
// each step's energies and momentum from Observe (reductions the step
// made), gathers the state with Sync only for trajectory frames (and the
// checkpoints of cmd/impactsim), sets no Check (the step checks the state
// on every process and undoes a refused step itself), and WriteVTK may
// write each frame in pieces with an index (output.WritePVTP).
//
// # Progress
//
// The progress bar estimates the remaining time from the recent steps'
// cost, and a step that takes seconds shows its phase (free flight,
// contact detection, contact law) and how long it has been in it
// (sim.Stepper.OnPhase, output.Progress.Phase).
package runner
