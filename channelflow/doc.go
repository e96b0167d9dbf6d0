// Package channelflow is the granular channel flow of Preclik et al.
// (sec. 4.3, Figs. 7–10, Table 2): spheres pushed into a walled channel by
// a moving plane, past an obstacle, out of its open end, stepped by the
// impulse-velocity time stepping with non-linear block Gauss–Seidel on the
// fast sphere path (package spheres), with Coulomb-like or maximum-
// dissipation blocks.
//
// # The experiment (Config; Paper, Medium, Half, Narrow, Tiny)
//
// Channel [0, L] × [0, W] × [0, H] with walls at y = 0, W and z = 0, H,
// gravity −g ẑ, an obstacle (a cylinder of radius R along z through
// (X, Y) whose half x > X is replaced by the box [X, X + R] × [Y − R, Y + R]),
// and the inflow plane x = P (plane 0 of the system) moving at speed V:
// when it has travelled one diameter 2r it moves back by 2r and a layer of
// spheres is spawned touching it, on the lattice of spacing s in y and z
// (65 × 20 = 1300 spheres for the paper: 1064 layers/s, 1.38·10⁶
// spheres/s at 1 m/s). Spheres start with velocity (V, U(−p, p), U(−p, p))
// (the perturbation's distribution is not given; uniform assumed); with
// Fill the channel starts filled on the lattice outside the obstacle.
// Spheres beyond x = L are deleted after every step. Values the paper
// does not give (error reduction, sweeps, domains, relaxation, wall
// friction, restitution) are those of Paper's documentation; every one is
// recorded in the run's summary.
//
// # Measurements
//
//   - Table 2 (Flow.Table2): average number of spheres and of contacts over
//     the samples taken every SampleEvery steps, the solid fraction (the
//     spheres' volume over the free volume L·W·H minus the obstacle),
//     contacts per particle 2·contacts/particles (each contact counted for
//     both its spheres), and the largest overlap of two spheres over every
//     step, in metres and as a fraction of r (the paper: 39.1 µm = 8.3 % of
//     r for Coulomb, 46.5 µm = 9.9 % for maximum dissipation).
//   - Figs. 8 and 9 (Flow.Maps): the final state's mean speed and mean
//     angular speed (rad/ms) of the spheres in each 1 mm × 1 mm column of
//     the x–y plane (150 × 65 cells for the paper), and the peak cell speed
//     (the paper: 1.42 m/s Coulomb, 1.39 m/s maximum dissipation).
//   - Fig. 10 (Flow.RDF): the radial distribution function in the region
//     RDFX0 ≤ x ≤ RDFX1 near the outflow ([12, 14] cm), computed as the
//     paper describes (the distance histogram of all ordered pairs in the
//     region, per bin divided by the spheres in the region and by 4πρ∫r²dr
//     with the overall number density ρ); its main peak lies at r = d.
//
// # Files (impactsim channel)
//
// A run directory holds summary.json (the Config, the block law, Table 2
// as the Table2 type's JSON fields, the wall time and its parts, the
// paper's Table 2), samples.csv with the header
// step,time,particles,contacts,pair_contacts,sweeps,residual,kinetic (one
// row per sample; residual is the last sweep's, kinetic the spheres'
// kinetic energy in J), speed.csv and omega.csv with the header
// x_cm,y_cm,value (cell centres in cm; mean speed in m/s, mean angular
// speed in rad/ms; NaN for empty cells) and their PNG heat maps (colour
// scales 0–1 m/s and 0–2 rad/ms as Figs. 8–9), rdf.csv with r_over_d,g and
// rdf.png, and with --vtk vtk/spheres.pvd indexing .vtp files with the
// spheres' centres and the point fields radius, velocity and omega. With
// both laws, table2.csv has the rows avg_particles, solid_fraction,
// avg_contacts, contacts_per_particle, max_penetration_um,
// max_penetration_of_r, peak_cell_speed and the columns quantity,
// paper_coulomb, paper_maxdiss, then one per law. State files
// (--save-state, --resume) are binary (Flow.WriteState).
//
// # Across MPI ranks (Flow.Distribute)
//
// Distribute spreads a flow over the ranks of an MPI job (package domain):
// a Cartesian grid of subdomains of the channel over x and y, ownership by
// centre, distributed NBGS in the reproducible colour mode (a fixed grid
// of blocks, DefaultBlocks, at least 5 radii wide: bitwise the same on
// any number of ranks) or in pe's mode. Every rank keeps the inflow
// plane, the random source and the counter of spawned spheres, so each
// draws the same layer with the same IDs as one process and keeps the
// spheres whose centres lie in its subdomain; each rank deletes its own
// spheres past x = L. After every step a census (reductions) gives the
// whole flow's count, contacts and penetrations, and the count must be the
// last one plus the spheres spawned minus those deleted, or the step
// fails. Samples' kinetic energies are summed per rank in ID order and
// over the ranks in rank order; the maps, the RDF and checkpoints come
// from the state gathered on rank 0 (Sync) in ID order. Against one
// process the sweep order differs (colour blocks or rank domains against
// spheres.Step's), so the two agree to the sweeps' convergence: with the
// sweeps converged to 1e-10 the velocities agree within 3.4 tol over 40
// steps of spawning and deleting (TestChannelRanksAgainstOneProcess);
// with a capped number of sweeps they differ by what the cap leaves.
//
// Every contact of this scene involves a sphere, whose Delassus block is
// isotropic and decoupled; there the Coulomb-like model has a unique
// solution and it equals the maximum-dissipation impulse
// (singlecontact.TestSphereProjection), so the two runs differ only in
// rounding (Coulomb's impulse comes from the general root finder) and
// agree statistically — the paper's differences come from waLBerla's
// iterative Coulomb subsolver.
package channelflow
