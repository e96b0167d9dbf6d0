// Package compliant is the ground truth the rigid impact operators are
// judged against for the wave effect (WAV, Zhang et al. §1 and Fig. 4): a
// cluster of balls whose contacts are stiff nonlinear springs, integrated
// through the whole multi-impact until every contact has separated.
//
// # Model
//
// Balls i = 1…N in 2D (1D chains are the special case Y = 0) with mass mᵢ,
// radius rᵢ, position xᵢ and velocity vᵢ. For every pair the overlap is
// δᵢⱼ = rᵢ + rⱼ − |xᵢ − xⱼ| and the unit normal nᵢⱼ = (xᵢ − xⱼ)/|xᵢ − xⱼ|.
// An overlapping pair (δᵢⱼ > 0) pushes the balls apart with
//
//	fᵢⱼ = k δᵢⱼ^η nᵢⱼ,   η = 3/2 (Hertz) or η = 1 (linear spring),
//
// so mᵢ ẍᵢ = Σⱼ fᵢⱼ. The force is continuous at δ = 0 and conservative with
// potential k δ^{η+1}/(η+1): the total energy Σ ½mᵢ|vᵢ|² + Σ k δ^{η+1}/(η+1)
// and the linear momentum are invariants, which the tests use to check the
// integrator. For a 1D chain with one stiffness k on every contact, the
// post-impact velocities do not depend on k (rescaling time and length maps
// one k onto another), which is why a "very stiff" chain is well defined;
// in 2D k must be large enough that δ ≪ r, so the normals barely turn.
//
// # Integration
//
// The state (displacements from the initial positions, velocities) is
// integrated with the explicit Dormand–Prince 5(4) pair (FSAL, seven stages,
// the 4th-order embedded solution for error control), with the step
// controller h ← h·min(5, max(0.2, 0.9·err^{−1/5})) and a mixed
// absolute/relative error norm. Displacements rather than positions are
// integrated so the tolerance resolves the overlaps δ ≪ r. The absolute
// tolerances are RTol times the natural scales: the velocity scale V (the
// largest initial relative speed) and the overlap scale
// δ* = (m V²/k)^{1/(η+1)}.
//
// # Termination
//
// Integration stops after the first step at whose end no pair overlaps and
// no pair is about to engage: every pair either separates
// ((vᵢ − vⱼ)·nᵢⱼ ≥ 0) or would need longer than Horizon × (elapsed time)
// of free flight to touch. (For a chain the second clause never triggers:
// after the impact the balls separate pairwise.)
package compliant
