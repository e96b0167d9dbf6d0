// Package desiderata measures the five physical desiderata of Smith et al.
// 2012 (§1, Table 1) for impact operators on canonical problems:
//
//   - BRK (break-away): the separation speed ∇g₂ᵀv⁺ at the initially resting
//     contact of the elastic three-ball Newton's cradle; GR gives 2, LCP 0.
//   - SYM (symmetry): the mirror asymmetry about the x axis of Bernoulli's
//     problem after impact; Gauss–Seidel breaks it.
//   - KIN (energy): the relative kinetic energy change |T⁺ − T⁻|/T⁻ of the
//     elastic problems; Jacobi changes it (2 → 3.5 on Bernoulli's problem).
//   - MOM (momentum): the relative linear momentum change.
//   - ONE (one-sided impulses): the most negative impulse component.
//
// The marks in the printed table come from these numbers and a tolerance,
// not from the paper.
package desiderata
