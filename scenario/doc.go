// Package scenario turns a scene description into something that runs: a
// system, the contact law the scene (or the user) asks for, and a stepper.
// It is the one place where SCISim's configuration vocabulary is mapped onto
// impactsim's operators:
//
//   - <impact_operator type="gr|grr|lcp|gauss_seidel|jacobi"> → the operator
//     of that name in package impact (GRR's nested elastic and inelastic
//     operators are honoured); no friction.
//   - <sobogus_friction_solver> and <staggered_projections_friction_solver>
//     → friction.Coulomb, the coupled Coulomb law with Newton restitution,
//     inside Alg. 4 (SCISim's "staggering" variants all map to Alg. 4's
//     single pass; its penetration stabilization is not modelled).
//   - impactsim's <nbgs_friction_solver> (no SCISim equivalent) → the
//     impulse-velocity time stepping of Preclik et al. (sim) with the
//     non-linear block Gauss–Seidel law friction.NBGS; so does the command
//     line's --law nbgs-maxdiss|nbgs-coulomb on any 3D scene.
//   - SCISim's numerical back ends (ipopt, ql, apgd) name solvers of the same
//     mathematical problem; all map to impactsim's exact qp "auto" solver
//     (dense active set for small problems, MPRGP for large ones).
//
// impactsim's <position_correction> (any system) → sim.Correction after
// every step (Stepper.SetCorrection), with its tolerance and pass cap;
// Options.Correction (--position-correction on|off, --correction-tol,
// --correction-passes) overrides it. Without either the correction is on
// for the built-in scenes with gravity (builtin:NAME) and off for SCISim's
// files and the generators' scenes (Table 2, the tests), which keep Alg. 4
// as the papers and SCISim run it. The default tolerance is
// DefaultCorrectionTol of the smallest radius, the search distance for
// missed contacts DefaultCorrectionSearch of it.
//
// impactsim's <mirror_order/> (ball2d) → ball2d.System.MirrorOrder, the
// step's contacts in the mirror-invariant order; --mirror-order on|off
// overrides it. Without either it is on exactly where the correction is
// on by default (the built-in ball2d scenes with gravity), whether or not
// the correction runs, so a corrected run's velocities are bit for bit
// those of the same run with --position-correction off, and the
// mirror-symmetric drop stays exactly symmetric at least as long with the
// correction as without (issue 18); SCISim's files and the generators'
// scenes keep the detection's order, SCISim's.
//
// Options override the scene: a different operator name (friction then
// comes from maximal dissipation, Alg. 3, with the scene's μ), restitution,
// friction coefficient, QP solver.
package scenario
