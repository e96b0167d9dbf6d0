// Package frame2d models towers of bricks as bar-and-joint frameworks and
// decides, after Rote & Zwick, "Collapse" (shared/papers/
// rote-zwick-collapse.md), whether they stand and how they fall.
//
// # Frameworks (sec. 2, 8.1, 8.4)
//
// A brick is a rectangle of point masses joined by rigid bars. Corners
// puts m/4 at each corner, with the four edges and one diagonal as bars
// (Fig. 4: 5 = 2·4 − 3 bars, minimally rigid). Nine is the distribution of
// Fig. 10: m/36 at the corners, 4m/36 at the edge midpoints and 16m/36 at
// the centre, the tensor product of Simpson's rule, so Σ mᵢ f(xᵢ, yᵢ) equals
// ∫ f dμ of the homogeneous rectangle for f = 1, x, y, x², xy, y² (sec. 8.1,
// tested, also for rotated bricks); it is braced by 15 = 2·9 − 3 bars (a
// triangle and six Henneberg steps), i.e. Fig. 10 without its redundant
// bar. Redundant bars would make the length equalities inconsistent under
// rounding (sec. 8.4); Framework.Check eliminates the rigidity matrix of
// every brick and names a redundant bar (or a brick that is not rigid)
// instead of running. Over-braced bricks (Framework.BothDiagonals, tower
// files: "diagonals 2") are run with the penalty variant of sec. 8.4
// (Sim.Penalty, the paper's M = 100): the bar equalities become a penalty
// term, implemented exactly with one extra variable per bar; the exact
// steps refuse them, naming the redundant bar. With unit brick masses
// the penalty must be stiff enough: the symmetric tower runs with M = 100
// (tested), the 5×5 tower with M = 100 deforms until its sidedness
// constraints become infeasible at step 91 (reported as an error), with
// M ≥ 1000 it runs 1,000 steps.
// Supports ("support" in a tower file) are fixed bricks; the ground is the
// fixed half-plane y ≤ 0.
//
// # Stability (sec. 1)
//
// Framework.Stable places non-negative normal forces at the two ends of
// every contact interval (touching antiparallel edges, and edges lying on
// the ground) and asks whether they balance the weight and the torque of
// every movable brick. The LP is solved with gonum's
// optimize/convex/lp.Simplex in phase-1 form (slacks s⁺, s⁻ on every
// equilibrium equation, minimise their sum): that form always has full row
// rank and a known feasible basis. Optimum 0 ⇔ stable; otherwise the first
// brick whose equations keep a residual is reported as the one that
// cannot be balanced. There is no friction (the paper ignores it).
//
// # Initial collapse (sec. 3, 4)
//
// InitialCollapse solves Gauß' principle (Q): minimise Σ mᵢ‖aᵢ − g‖²
// subject to (L2⁺) ⟨aᵢ − aⱼ, pᵢ − pⱼ⟩ + ‖vᵢ − vⱼ‖² = 0 for all bars and
// (S2⁺) 2A(vᵢ, vⱼ, v_k) + ⟨a_k − [(1−t)aᵢ + t aⱼ], (pⱼ − pᵢ)^⊥⟩ ≥ 0 for
// the triples with p_k on the edge pᵢpⱼ and zero normal velocity (4.3,
// 4.4), with v = 0. A contact with zero relative normal acceleration stays
// closed; the others open (the bricks lift off).
//
// # Motion (sec. 5, 8.3, 8.5; Figs. 6 and 7)
//
// Sim.Step is the position-based step of Fig. 7: p̃ = 2p⁽ℓ⁾ − p⁽ℓ⁻¹⁾ + gΔt²,
// then minimise Σ mᵢ‖pᵢ − p̃ᵢ‖² (Q') subject to
//
//	(L″)  ⟨pᵢ − pⱼ, dᵢⱼ⟩ = L⁰ᵢⱼ ‖dᵢⱼ‖,   dᵢⱼ = pᵢ⁽ℓ⁾ − pⱼ⁽ℓ⁾   (sec. 8.3; default)
//	(L')   ⟨pᵢ − pⱼ, dᵢⱼ⟩ = ‖dᵢⱼ‖² − ‖Δᵢ − Δⱼ‖²,  Δ = p⁽ℓ⁾ − p⁽ℓ⁻¹⁾   (Length = LPrime)
//	(S')   ⟨p_k − [(1−t)pᵢ + t pⱼ], (pⱼ⁽ℓ⁾ − pᵢ⁽ℓ⁾)^⊥⟩ ≥ −2A(Δᵢ, Δⱼ, Δ_k)
//
// where t is the foot of the projection of p_k⁽ℓ⁾ on the edge. The paper
// prints the right-hand side of (S') as −2A(Δ)/Δt with A(Δ) = A(v)Δt³;
// A is quadratic in its vectors, A(Δ) = A(v)Δt², and the substitution of
// sec. 6 gives −2A(Δ) (without the division), which is what Theorem 5.1
// needs and what the test of the theorem checks. The unknowns of the QP
// are the displacements u = p − p⁽ℓ⁾, so every right-hand side is a small
// number computed without cancellation (e.g. (L″) reads
// ⟨uᵢ − uⱼ, d⟩ = ‖d‖(L⁰ − ‖d‖)), and rows are scaled to unit norm.
// Sim.AccelStep is the classical loop of Fig. 6 ((Q) with (L2⁺), (S2⁺) for
// the exactly active triples, then (3.1)). It has no collision handling
// and no correction (step (d) of Fig. 3): a brick that lands on another
// one or on the ground is never "exactly" in contact and passes through.
// It is there for comparison and for Theorem 5.1.
//
// Sidedness constraints (sec. 8.5): for every pair of bricks whose
// bounding boxes come within Margin (default a tenth of the shortest bar),
// every vertex of each brick is constrained against its best separating
// edge of the other brick, the edge whose line it is "most satisfied or
// least violated" by, if its signed distance is at most Margin. This is
// sec. 8.5's criterion applied per vertex instead of once per pair. The
// per-pair version (one critical line, all vertices of the other brick)
// does two things we measured to be wrong for brick stacks: the line
// through the lower brick's top face, extended, stops an overhanging brick
// from tipping over the edge, and with the upper brick's bottom face as
// the critical edge the lower brick's far corner is unconstrained, so a
// tilting brick sank 1.6% of its height into its neighbour in the 5×5
// tower (per vertex: 1.5e-4). For a convex polygon the best edge of a
// vertex at positive distance separates it from the whole polygon, so the
// constraint never blocks a separating motion, and a vertex beyond the end
// of an edge is held by the adjacent edge (no slipping through corners).
// Ties (a vertex exactly at a corner) prefer the edge facing the vertex's
// brick, then the edge whose normal points up: the choice is
// mirror-invariant. Corners within Margin of the ground get y ≥ 0.
//
// Theorem 5.1 (tested on random frameworks to 1e-10, measured 2e-15): an
// acceleration step and a position step with (L') give the same positions.
// Theorem 7.1 (tested): with g = 0 the velocities (p⁽ℓ⁺¹⁾ − p⁽ℓ⁾)/Δt of a
// position step at the moment two bricks touch are those of the classical
// perfectly inelastic collision, with and without rotation.
//
// # The QP
//
// Every QP here has the form min ½Σ mᵢ(xᵢ − x⁰ᵢ)² subject to linear
// equalities and inequalities, solved by qp.DiagQP through its dual, a
// bound-constrained QP in the multipliers solved by the exact active-set
// method qp.Dense after the equality multipliers have been eliminated
// (one Cholesky block per brick). Sim.Tol (default 1e-12) is the dual KKT residual
// required; typical steps reach 1e-15, a brick wedged between several
// neighbours (nearly dependent contact rows) a few 1e-13. The inequality
// multipliers are the contact forces (rows have unit norm).
//
// # Tower files
//
// A tower file is plain text, one item per line, '#' starts a comment:
//
//	model corners|nine          mass distribution (default corners)
//	diagonals 1|2               2: over-braced bricks (needs --penalty)
//	gravity G                   magnitude, pointing to −y (default 9.81)
//	dt DT                       time step for collapse (default 0.005)
//	ground yes|no               the ground y = 0 (default yes)
//	brick X Y W H [mass=M] [angle=DEG] [name=NAME]
//	support X Y W H [angle=DEG] [name=NAME]      a fixed brick
//
// X, Y is the lower-left corner before the rotation by angle about the
// centre; names default to #1, #2, … in file order. Errors name the file
// and line ("tower.txt:7: brick b3 overlaps brick b1 (penetration 0.5)").
// Overlapping bricks, bricks below the ground, non-positive sizes (the
// bars would have zero length) and non-positive masses are rejected.
//
// Built-in towers (Builtin): tower5x5 (Fig. 2 in spirit: five layers of
// five 2×1 bricks in running bond, two bricks missing at the bottom
// right), harmonicN (the harmonic stack of N bricks with overhang
// Σ_{k≤N} 1/(2k) on a table; stable, and unstable if the top brick moves
// out by 1% of its length), single (a brick on a support, its centre 0.3
// beyond the edge), symmetric (a left–right symmetric unstable tower).
//
// # Output
//
// WriteTrajectoryCSV writes frame,time,brick,name,fixed,x0,y0,…,x3,y3 (the
// corners counter-clockwise from the lower left); RenderGIF draws the
// frames with gg.
package frame2d
