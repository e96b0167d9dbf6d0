// Package sim drives a system through time with the collision integrator
// of Smith et al. 2012 (Alg. 4):
//
//	1  (q̃, p̃) ← FF_Integrator(qᵗ, pᵗ, h)
//	2  𝔸 ← Get_Active_Set(q̃)
//	3–5 λ ← c λ₁ + (1 − c) λ₀          (the contact law on 𝔸 at qᵗ)
//	6  β ← Friction(qᵗ, pᵗ, 𝔸, λ)
//	7  p⁺ ← pᵗ + G_𝔸(qᵗ) λ + D_𝔸(qᵗ, pᵗ) β
//	8  (qᵗ⁺¹, pᵗ⁺¹) ← FF_Integrator(qᵗ, p⁺, h)
//
// The active set is found on the free-flight prediction q̃ but the
// constraint gradients are evaluated at qᵗ, and the final free flight
// restarts from qᵗ with the corrected velocity. A System supplies free
// flight and problem assembly; a ContactLaw (an impact operator followed by a
// friction operator, or a coupled frictional law) supplies lines 3–6.
//
// # Staggerings (SCISim's impact–friction maps)
//
// Alg. 4 is SCISim's geometric staggering. SCISim's scenes may ask for two
// others (the staggering attribute of its friction solvers), which
// Stepper.SetStaggering selects; ⊕ is the system's configuration update
// without forces (ConfigurationUpdater: x + h u, and R ← exp(h[ω]×) R for
// rigid bodies):
//
//	stabilized:        (q̃, ṽ) ← FF(qᵗ, vᵗ, h);  𝔸 ← Get_Active_Set(qᵗ, q̃)
//	                   v⁺ ← ṽ + M⁻¹(G λ + D β), the law solved on ṽ (restitution on Gᵀṽ)
//	                   qᵗ⁺¹ ← qᵗ ⊕ h v⁺,  vᵗ⁺¹ ← v⁺
//	symplectic_euler:  δ ← h M⁻¹ F(qᵗ);  q̃ ← qᵗ ⊕ h (vᵗ + δ);  𝔸 ← Get_Active_Set(qᵗ, q̃)
//	                   the law on vᵗ with known relative velocities Gᵀδ, Dᵀδ
//	                   (+ min(0, gᵢ(qᵗ))/h with stabilization, for gaps deeper
//	                   than the penetration threshold)
//	                   vᵗ⁺¹ ← vᵗ + M⁻¹(G λ + D β) + δ,  qᵗ⁺¹ ← qᵗ ⊕ h vᵗ⁺¹
//
// with G and D at qᵗ throughout; without contacts the stabilized step is
// the free flight and the symplectic_euler step is (qᵗ ⊕ h(vᵗ + δ), vᵗ + δ).
// Differences from Alg. 4: stabilized constrains the velocity at the end
// of the free flight, so gravity's kick of this step is already in the
// velocity the contacts see (a resting body keeps zero normal velocity and
// does not sink by h² g per step), and its positions move with the
// constrained velocity (first order, not the free-flight integrator);
// symplectic_euler drops the scene's integrator altogether (first-order
// Euler with the kick first), and its restitution must be 0 (SCISim
// refuses other values; so do the scene readers), because the law sees
// vᵗ + δ, not a pre-impact velocity.
//
// # Position correction (Stepper.SetCorrection, type Correction)
//
// Velocity-level impact response drifts under sustained contact (Smith et
// al. §12): positions follow qᵗ ⊕ h v⁺ with gradients at qᵗ, so a body
// resting on static geometry sinks by ½|g|h² per step, and a body whose
// path the impulses bent can end a step inside one the active set (found on
// the prediction q̃) never met. The correction is one more stage of every
// step, for every scheme and staggering, after the new positions q are
// computed and before AfterStep; it moves positions only:
//
//	min ½ ΔqᵀMΔq   s.t.   gᵢ(q) + ∇gᵢ(q)ᵀΔq ≥ −Tol/2   (i in the step's contacts),
//	Δq = M⁻¹Gμ,   0 ≤ μ ⊥ Aμ + g + Tol/2 ≥ 0,   A = GᵀM⁻¹G          (P1, P2)
//
// (impact.Projection: the inelastic LCP kernel of Alg. 1 with the gaps in
// the place of Gᵀv, on the same islands and exact QP solvers, solved on a
// working set — the contacts within Tol of the target, grown by those the
// displacement would close until none is — which is (P2)'s exact solution
// found on the islands of the penetrating contacts instead of a whole
// pile's), then
// q ← q ⊕ Δq (the system's ConfigurationUpdater). A pass is repeated,
// linearized afresh, while a contact overlaps by more than Tol, up to
// MaxPasses; a step whose contacts all have gᵢ ≥ −Tol is left bit for bit.
// The target −Tol/2 keeps resting contacts inside the next step's active
// set (a pair projected to exactly g = 0 falls in or out of it by
// rounding, and impulses then push bodies through the ones left out). The
// system supplies the gaps at any q (GapEvaluator), the displacement
// (ConfigurationUpdater) and its potential energy; optionally the
// gradients at q (Relinearizer: one pass is then exact for convex gaps,
// ball pairs and planes; otherwise the step's gradients at qᵗ are used)
// and the contacts the step missed (MissedContactFinder, Correction.Search:
// bodies that ended a step or a pass farther than Search from where their
// contacts were found are searched; a missed contact between two bodies
// that moved less overlaps by less than 2·Search + Tol).
//
// What it keeps: the velocities are never changed, so every impulse is
// the contact law's and each impact keeps BRK, SYM, KIN, MOM and ONE as
// without the correction; Δq is unique (M positive definite), so a
// mirror-symmetric state stays mirror-symmetric in exact arithmetic; in
// floating point it does so bit for bit as long as each sum pairs mirrored
// terms alike, which the system's contact keys give (ContactKeyer; ball2d:
// height along −g, then distance from the mirror axis): the working set
// and every island list their columns, and Δq sums its terms, in the
// keys' order, so a mirror pair of islands is the same QP bit for bit,
// and an island that spans the axis (mirror pairs inside one QP, which
// one solve rounds apart whatever the column order) gets the average of
// its solution and its image when its problem is bitwise invariant under
// swapping the pairs of equal keys (the 10K mirror drop with the step's
// end state mirrored before every correction stays exactly symmetric
// through the 1,000 steps tested). In the plain
// mirror drop the step breaks the symmetry first, by a 1-ulp difference
// of GR's island impulses at step 124 (step 144 without the correction,
// on a different trajectory), which the pile then amplifies at the same
// rate as without: 10⁻³ is reached at step 263 instead of 278 (package
// scenario's mirror tests). With ball2d's mirror-invariant contact order
// for the step too (System.MirrorOrder, --mirror-order on, the default
// of impactsim's built-in scenes with gravity) and an island that spans
// the axis averaged with its image in GR and LCP as in the projection
// (mech.Problem.Keys), the step keeps it too: the 10K mirror drop is
// exactly symmetric through all 2,000 steps run with the projection, with ngs
// and without the correction (with the order alone it broke at step 297,
// 296 and 291). The stepper's v⁺ sum over a ball's contacts needs no
// change: in key order a ball and its image meet their contacts in
// corresponding orders. Contacts between free
// bodies move no centre of mass (Σᵢ mᵢΔxᵢ = Σ translational parts of Gμ =
// 0 for pair columns); results do not depend on the worker count and a
// step allocates nothing. What it changes: the potential energy, by
// CorrectionStats.PotentialChange per step (energy.csv correction_pe). A
// resting body gets back the ½m|g|²h² lost by sinking (the stack keeps
// E − E₀ equal to the free-fall kinetic energy Σ½mᵢ(h|g|)² that Alg. 4
// leaves at every step's end, with no drift); separating bodies that
// overlap after a missed collision adds energy (the 1,000-ball elastic drop
// gains 9 % over 10 s; Verlet and GR alone conserve it to 10⁻¹²).
//
// SCISim's own remedies differ. The stabilized staggering constrains the
// free flight's end velocity ṽ and moves by qᵗ ⊕ h v⁺, so gravity's kick
// is inside the velocity the law sees and a resting body keeps zero
// normal velocity and does not sink; but restitution then acts on ṽ, the
// update is first order (the scene's integrator, and its energy
// behaviour, is dropped), and penetration that exists (missed collisions,
// initial overlap) is never removed. symplectic_euler with stabilization
// adds min(0, gᵢ)/h to the normal velocity of deep contacts — a velocity-
// level (Baumgarte) push that the law turns into separating velocity, so
// kinetic energy is gained and impulses act where no impact is (ONE) —
// and requires c = 0. The correction keeps Alg. 4 and the law untouched
// and removes penetration of any origin, at the cost of the projections
// and of the potential energy it reports.
//
// Correction.Method MethodNGS replaces the projection by a nonlinear
// Gauss–Seidel position projection (Box2D v2's position solver without
// its Baumgarte factor, slop and step limit; the system implements
// ContactSweeper): contact by contact, in a fixed order (ball2d: lowest
// first, so a pile's supports come before what they carry), a contact
// whose gap at the current q is below −Tol/2 is pushed back to it along
// its normal at the current q,
//
//	λ = (−Tol/2 − gᵢ(q)) / (∇gᵢᵀM⁻¹∇gᵢ),   q ← q + M⁻¹∇gᵢ λ,
//
// and sweeps repeat, with the missed-contact search after every
// sweepsPerSearch of them, until a sweep sees no overlap above Tol, the
// search finds nothing and every gap is within Tol, or MaxSweeps (then
// the step goes on, CorrectionStats.Capped; Stepper.Strict makes it an
// error). It moves positions only, so the velocities and every impact
// desideratum are kept as with the projection, and it is serial, so the
// result does not depend on the workers; but it is not (P2)'s minimal
// displacement: each push is the minimal displacement of one contact
// with the others frozen, and the sweeps converge linearly (more slowly
// the deeper the chain of contacts a push must travel), to an answer
// that depends on the order — on the 10K elastic drop of Table 2 it adds
// 17,092 to the potential energy over 1,000 steps against the
// projection's 20,132 (correction_pe). Inside a layer the sweep takes the
// contacts in the order of their mirror-invariant keys (ContactKeyer's),
// so a mirror-symmetric state is swept to an exactly mirror-symmetric one
// (the mirror drop with mirrored step ends: all 400 steps tested); in the
// plain mirror drop the step breaks the symmetry at step 100 (v⁺ sums a
// ball's contact terms in list order) and 10⁻³ is reached at step 260
// (139 with the index order inside a layer). It costs about 0.58 of the
// projection's CPU there (still about 1.4 times the step, 1.2 times at
// Tol 10⁻³ radii). Of a step's correction, the missed-contact search and
// the gaps, paid even when nothing needs correcting, are about 0.4 times
// the step and the sweeps about 0.7 times (BENCHMARKS.md "corrcheap",
// "corrsym", "corrfuse").
//
// # Closed active set (Stepper.SetClosure, type Closure)
//
// Alg. 4 finds 𝔸 on the free-flight prediction q̃ (line 2); the impulses
// of lines 3–7 then bend paths — GR's break-away sends the top of a column
// up fast — into pairs 𝔸 never held, and qᵗ⁺¹ overlaps them (the missed
// contacts of the position correction). With a Closure the step closes 𝔸
// under the corrected velocity:
//
//	after line 8:  𝔹 ← Get_Active_Set(qᵗ, qᵗ⁺¹) ∖ 𝔸   (the system's detection on the motion v⁺ gives)
//	while 𝔹 ≠ ∅:   𝔸 ← 𝔸 ∪ 𝔹;  lines 3–8 again from (qᵗ, vᵗ) on 𝔸;  𝔹 ← Get_Active_Set(qᵗ, qᵗ⁺¹) ∖ 𝔸
//
// (ActiveSetCloser: MissingContacts and AddMissing; 𝔸 keeps the
// detection's order, gradients at qᵗ as in line 3). 𝔸 only grows and is
// finite, so the loop ends; Closure.MaxRounds caps the re-solves, and a
// step still growing at the cap goes on with its last solve and is
// recorded (ClosureStats.Capped and Missing; Stepper.Strict makes it an
// error, ClosureCapError). What it keeps: each step is one simultaneous
// impact of the contact law on the final 𝔸 from vᵗ — the law is not
// changed, so BRK, SYM, KIN, MOM and ONE hold for it as for any active set
// (package desiderata measures the operators, not the stepper) — and the
// solves it supersedes leave no trace; the result is deterministic for
// any worker count and a steady step allocates nothing. What it changes:
// the velocities, relative to Alg. 4 (more contacts take impulses), so it
// is an option, off by default: SCISim's scenes and the paper's tables run
// Alg. 4. Only the geometric staggering is closed (the others detect on
// other motions). With the position correction, the missed-contact search
// starts from qᵗ⁺¹ when the set is closed: every pair overlapping there is
// in 𝔸. The law's warm start (impact.Config.WarmStart), when on, sees the
// superseded solves as earlier calls. Measured (BENCHMARKS.md,
// "redetect"): on the 10K elastic drop every step whose set closed ended
// within the correction's tolerance before the correction ran (so the
// correction no longer adds energy: the elastic 1,000-ball drop with both
// conserves it to 10⁻¹², against the 9 % gained above), but the set
// grows about one layer of the pile per re-solve, and the closure costs
// 3.3 times the run of Alg. 4 with the correction; on the 100K pile a step
// did not finish in 300 s.
//
// # Impulse-velocity time stepping (Preclik et al. sec. 3.1)
//
// NewImpulseVelocityStepper makes a Stepper that advances a system with the
// position-level scheme of Preclik et al. instead: with the external
// impulses z = (h f_ext, h τ_ext − h ω × I(ϕ)ω) (explicit gyroscopic term),
//
//	v̂ = v + M⁻¹z,
//	ξᵢ/h + ∇gᵢᵀv′ ≥ 0 ⊥ λᵢ ≥ 0 (with friction: the contact law's eq. 5),
//	v′ = v̂ + M⁻¹(Gλ + Dβ),   x′ = x + h v′,   ϕ′ = (ϕ + h Q(ϕ)ω′)/‖·‖₂,
//
// where the contacts are those active at the prediction x + h v̂, assembled
// at x, and the gap ξᵢ at x enters as the known normal velocity NRel[i] =
// ε·min(0, ξᵢ/h) + max(0, ξᵢ/h) (GapVelocity; error reduction ε ∈ [0, 1)).
// The system supplies Kick (v̂), Drift (x′, ϕ′) and Gaps (ξ)
// (ImpulseVelocitySystem); the law is friction.NBGS. If the system sets
// known velocities of moving walls, the gap term is added to them.
//
// # Hooks and moving geometry
//
// AddHook adds callbacks that every step runs, whatever the scheme: Begin
// before the step (it may place moving geometry where it is at the end of
// the step, s.T + s.H, with its velocity there, and set kinematic bodies in
// Q and V: a scene's <motion>, a SCISim script's startOfStep, the user's
// Go code), Coefficients once the contacts are known (per-contact CoR and
// Mu: scripts, velocity-dependent restitution), End after the step.
// SetState takes a state of a new size after a hook inserted bodies.
// StepStats.WallWork is the work the moving geometry did through the
// step's impulses: −Σλᵢ NRel[i] − Σβₖ DRel[k] over the known velocities the
// system set (mech.KnownWork; not the stepper's own gap and kick terms)
// plus the work of kinematic bodies carrying their velocity in v
// (mech.Problem.FixedWork), so that the change of kinetic and potential
// energy equals the wall work minus what the contacts dissipate.
package sim
