// Package domain runs one system — 2D balls (package ball2d: Balls) or 3D
// spheres (package spheres: Spheres) — across the ranks of an MPI job
// (package mpi) by spatial domain decomposition, with results that do not
// depend on the number of ranks.
//
// One core (core.go, state.go) serves both: it knows bodies only as a
// global id, a centre, an image shift and a payload of numbers the system
// defines (a ball's velocity, mass and radius; a sphere's velocity, spin,
// orientation, radius and inverse mass and inertia), and contacts only as
// two local bodies, a kind and object, and the system's data (normal,
// known velocities). A system enters through a model (balls.go,
// spheres.go): the halo's extent, its local system, detection in the
// whole system's contact order, island solves, the end of the step.
//
// # Decomposition
//
// The region [Lo, Hi] is cut into a Cartesian grid of Dims[0] × Dims[1]
// (× Dims[2] for spheres) equal subdomains, one per rank of an mpi.Cart
// (rank r at the row-major coordinates of r). A body belongs to the
// subdomain holding its centre (centres outside a non-periodic region to
// the nearest edge subdomain); each rank keeps its bodies sorted by global
// id (the index in the ball system every rank read, the sphere's ID).
//
// # One step (Alg. 4 of Smith et al. across ranks)
//
//  1. Halo. h_I = 2 r_max + 2 d_max with d_max = max h|vᵢ| + h²|g| over the
//     free balls (mpi.Max reduction): two balls can meet in the step only if
//     their centres are within h_I at its start, because a contact needs
//     |xᵢ(t) − xⱼ(t)| ≤ rᵢ + rⱼ on the straight paths of ball2d's CCD and
//     each centre moves at most d_max. A subdomain narrower than h_I along a
//     decomposed or periodic dimension is refused with the numbers.
//     For spheres under Alg. 4, d_max = h|v| + ½h²|g| (the prediction);
//     under NBGS, half the detection's margin h(2|v̂| + |V_wall|).
//  2. Ghosts. Each rank sends every ball within h_I of a face to the
//     neighbour across it, x first, then y (then z) with the ghosts just
//     received (so edge and corner neighbours get theirs in two or three
//     hops), one batched message
//     per neighbour and direction (mpi.Exchange: lengths, then payloads,
//     non-blocking). Across a periodic face the image is shifted by the
//     period and carries its shift.
//  3. Prediction and detection. The rank's balls and ghosts, in (global id,
//     shift) order, form a ball2d.System whose FreeFlight and BuildProblem
//     are those of one process (same arithmetic, contacts in the same
//     relative order: pairs by (I, J), drums and planes by (object, ball)).
//  4. Islands. A rank answers for the contacts with a free ball it owns.
//     Free balls joined by such contacts form components (fixed balls and
//     walls join nothing, as in package impact); a component holding a free
//     ghost belongs to an island that crosses subdomains, the others are
//     islands wholly of this rank, solved here with the rank's contact law
//     as one process would solve them.
//  5. Crossing islands. Every rank sends the contacts of its crossing
//     components and their balls to Root (mpi.Gather). Root merges them (a
//     contact seen by the owners of both balls is kept once, the copy found
//     with ball I real rather than an image), orders them as the whole
//     system's detection would, builds the problem with ball2d's FillProblem,
//     solves it exactly and broadcasts v⁺ of its free balls. A rank's piece
//     of a crossing island always holds a free ghost (the island reaches
//     another rank through a contact whose far ball is a ghost here), so
//     every crossing island reaches Root whole.
//  6. v⁺ = v + M⁻¹(Gλ + Dβ) with the stepper's arithmetic, then free flight
//     from qᵗ with v⁺; centres leaving a periodic region re-enter at the
//     other side; balls whose centre left the subdomain migrate (x, then y;
//     a move of more than one subdomain in a step is an error).
//
// A rank whose step had no ghost, no periodic wrap and no migration keeps
// its local system for the next step instead of loading it again from its
// bodies; a rank with no neighbour at all (one rank, not periodic) also
// skips the halo (Stats.Halo reads 0), the islands' union-find and the
// crossing gather, and writes the state back into its bodies only when
// they are read (Count, Momentum, Gather). The arithmetic is the same, so
// the results are bitwise those of the full path; the steady step of one
// rank allocates nothing of its own (BENCHMARKS.md: its overhead over one
// process).
//
// # Exactness
//
// Every impact operator of package impact is separable over islands: an
// island's impulses depend only on its own contacts, in their relative
// order, and its bodies in theirs. Steps 3–5 reproduce both orders, so GR,
// the LCP and the others give the single-process result bitwise on any
// number of ranks (tests: 1, 2 and 4 ranks, 200 steps, difference 0 — the
// tolerance asserted is 1e-12). Periodic runs have no single-process
// counterpart with these semantics (ball2d's portals detect discretely);
// they agree bitwise across rank counts instead.
//
// # Distributed NBGS (spheres; nbgs.go)
//
// With SpheresConfig.NBGS a step is Preclik et al.'s (sec. 3.1, package
// spheres' Step): kick v̂ = v + h g, contacts at the current positions
// whose gap ξ closes within the margin h(2 max|v̂| + max|V_wall|) — the
// whole system's margin, an mpi.Max reduction, so every rank finds the
// contacts one process finds — then the non-linear block Gauss–Seidel
// sweeps of eq. (5), each contact j solving its block
//
//	λ_j ∈ argmin ½λᵀA_jjλ − λᵀ(b_j − A_jj̄λ_j̄)   (cone, Signorini)
//
// given the others' impulses through the current velocities, then the
// drift x′ = x + h v′. A contact is swept by exactly one rank: the owner
// of its sphere I, the lower ID in the canonical orientation (a copy
// whose I is an image is not swept), chosen the same way on every rank
// count. Convergence is checked after every sweep by an Allreduce(max) of
// the ranks' residuals max_j A|Δλ_j| — a maximum, whose value no order of
// reduction changes — so every rank runs the same number of sweeps and
// stops at the same one (tolerance and cap as friction.NBGS: at the cap
// the step goes on and the statistics record it).
//
// Colours (reproducible). A fixed grid of Blocks[d] blocks per dimension,
// each wider than 2 h_I and each inside one subdomain (ownership follows
// the blocks), is coloured by the parities of its coordinates (2^D
// colours). A contact belongs to the block of its sphere I. Two contacts
// of one colour in different blocks have spheres I more than a block
// width > 2 h_I apart, while every sphere of a contact is within h_I of
// its I: they share no sphere. So one sweep is, colour after colour:
// every rank sweeps its contacts of the colour in the canonical order
// (Gauss–Seidel, in place), then every ghost the colour changed sends its
// new (v, ω) home along the reverse of its ghost route, where it
// overwrites the owner's (a sphere is changed by one block per colour,
// hence by one rank), and every owner that changed sends its (v, ω) to
// every copy, overwriting it. The values each contact reads are then those a single
// process sweeping the blocks colour by colour reads, in the same order:
// the result is bitwise the same for any number of ranks, and equal to
// the same sweeps on one rank (TestSpheresNBGSColoursBitwise: 1 vs 2 and 4
// ranks, 100 steps of a walled box under gravity with μ = 0.3 and of a
// periodic gas, difference 0). It is a different sweep order from
// spheres.Step's, so it agrees with one process's spheres.Step to the
// sweeps' convergence, not bitwise.
//
// PE (waLBerla pe's HCSITS exchange). Once per sweep: every rank sweeps
// all its contacts; a contact whose sphere J is a ghost (a shadow copy)
// takes the relaxed increment Δ ← ω Δ (friction.NBGS's contacts across
// domains, ω = Law.Relax) on its impulse and both spheres; each ghost's
// velocity correction δ(v, ω) goes home along the reverse of its ghost
// route, summed on the way, and the owner adds Σδ to its (v, ω); the
// owners' values then overwrite every copy. This is friction.NBGS's
// domain scheme with ranks as domains: Gauss–Seidel inside a rank, a
// relaxed block Jacobi across ranks. Its result depends on the rank
// count within the sweeps' convergence: TestSpheresNBGSPE compares one
// step from ten states of the walled box with one process's spheres.Step,
// both to the residual 1e-9, and finds at most 20× the tolerance on 1, 2
// and 4 ranks (asserted: 100×) — the same as the one-process sweeps in
// another order.
//
// Messages per sweep: Colours 2^D colours (D the dimensions of more than
// one block) × (D reverse + D forward legs along the decomposed ones); PE
// D + D legs; each carries (position in the route, v, ω) for the bodies
// the colour or sweep changed only (the others' copies already agree);
// plus one Allreduce of one value.
//
// # Insertion and deletion (insert.go)
//
// Bodies may be added and deleted between steps (the channel flow's inflow
// and outflow; Spheres.AddSphere, RemoveSpheres). Global ids are the
// caller's and must not depend on the rank count: every rank evaluates
// the same deterministic rule (the channel numbers spawned spheres by a
// counter, with the same random draws, as one process numbers them) and
// offers every new body; a rank keeps it only when its centre lies in its
// subdomain (the cell of ownership, blocks included), so exactly one rank
// creates it. A body is deleted by its owner alone. Ghosts live for one
// step — each step's exchange rebuilds them from the owners' bodies — so
// a deleted body's ghosts are dropped on the neighbours by the next
// exchange with no message; the rank's own local system, which a rank
// without ghosts keeps between steps, is marked to be loaded again. Both
// keep the bodies in id order and do not allocate in the steady state
// (TestOneRankStepAllocs: a sphere replaced every step). The whole
// system's counts after a step (Census: bodies, bodies deleted, contacts,
// pairs, largest penetrations) are reductions of integers held exactly in
// float64 (exact in any order below 2⁵³) and of maxima, so every rank
// count gives the same numbers; floating-point sums (KineticEnergy) are
// added on Root in rank order. CheckIDs gathers every id to Root and
// checks that none is held twice (a test aid).
//
// # Building the parts (NewSpheresPart)
//
// A system too large for one machine must not be built whole anywhere.
// NewSpheresPart creates the grid first and hands each rank the
// predicate of its subdomain (owns: the cell of the centre after the
// periodic wrap, adopt's test); the rank's builder creates only the
// spheres it accepts, with their global IDs (patterns.NewPart generates
// the vibrated layer's spheres of a region bit for bit as the whole
// layer's; spheres.System.ReadStatePart streams a checkpoint keeping a
// region's rows). One Allreduce of (count, Σ id, failures) then checks
// that the parts make the system — n spheres with IDs 0 … n−1 (the sum is
// compared while it is exact, n < 2²⁶; duplicates within a rank are
// checked there) — and that no rank's builder failed, so every rank
// returns an error together (ErrOtherRank on those whose own part was
// fine). The result is NewSpheres' split of the whole system, bit for bit
// (TestSpheresPartEqualsWhole). GatherState into a part (or an empty
// system) makes it the whole system on Root, for output and checkpoints.
// Balls have the same in NewPart (global ids given with the part: a
// scene file read in a stream by scene.ReadBall2DPart); New and
// NewSpheres are the same code given the whole system.
//
// # The limit: one giant island
//
// An island that crosses subdomains is solved on one rank, so a settled
// pile — one island through every subdomain — is solved serially on Root
// with all its contacts shipped there every step; it scales like one
// process plus the gather. Past that, the exact operators would need a
// distributed QP (the parallel MPRGP of package qp's iteration over
// distributed vectors, or PETSc/TAO's bound-constrained QP, too slow per
// step at 10⁵ contacts), or the iterative NBGS law swept across ranks
// (distributed NBGS, above, for spheres).
package domain
