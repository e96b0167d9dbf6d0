// Package patterns is the extended-patterns experiment of Smith et al.
// §11.4 (Fig. 12, Table 3) and Zhang et al. §5.3 (Table 2): a layer of
// frictional spheres on a floor vibrating vertically forms stripes, squares
// or hexagons depending on the dimensionless frequency f* = f√(H/g) and
// acceleration Γ = A(2πf)²/g.
//
// # The layer (Bizon et al. 1998, Phys. Rev. Lett. 80, 57)
//
// N = 60,000 spheres of one diameter σ in a cell periodic in x and y
// (spheres.Periodic) of area L_x L_y = Nσ²/6.0 (Config.PerArea: 6.0
// spheres per σ² of floor, 100σ × 100σ at 60,000) with the layer depth H
// = 5.42σ (Config.Depth) in f* = f√(H/g) and λ/H: the N, box and depth of
// Bizon et al.'s own reference configuration of their 1998 simulation
// (github.com/cbizon/granular_benchmark: challenge/cases.json,
// particle_count 60000, box_width 100, layer_depth 5.42; the drive
// frequency f*/√(H) in units of √(g/σ)). H is not Nσ³/(L_x L_y) = 6.0σ;
// the source does not define it, and 5.42σ is what that layer's depth
// would be at a packing fraction of 0.58 (6.0·(π/6)/0.58 = 5.42, our
// inference). The first sessions took H = Nσ³/(L_x L_y) =
// 5.4σ (PerArea = 0: 5.4 per σ², 105.4σ × 105.4σ), a layer with 10 %
// fewer spheres per area at the same f. Square by default; Config.Aspect
// = L_y/L_x, HexAspect = √3/2 for hexagons, whose three wave vectors are
// not allowed wave vectors of a square periodic cell. Bizon et al.'s box
// has solid side walls (restitution 0.7, μ = 0.5) and diameters spread by
// 1 %; here the sides are periodic (the choice, as in Smith et
// al.) and the spheres of one size. Restitution e(v) = 1 − (1 − e₀)(v/v₀)^{3/4} below v₀ =
// √(gσ) and e₀ = 0.7 above (impact.VelocityRestitution; ConstantCoR,
// --constant-restitution: e₀ for every impact, the single coefficient of
// Smith et al.'s generalized restitution), friction μ = 0.5
// (Alg. 3, or the boxed LCP), the floor z = A sin(2πf t) (package motion,
// spheres.Plane.Follow), f = f*√(g/H), A = Γg/(2πf)². Bizon et al.'s
// tangential restitution β₀ = 0.35 (Walton's model: a sticking contact's
// tangential velocity is reversed by β₀, not stopped) has no counterpart
// in Alg. 3 (maximal dissipation stops it); Config.Beta0 adds it on top
// of Alg. 3 (friction.TangentialRestitution: exact for a single contact,
// approximate for coupled ones) and is 0 by default (Smith et al.'s law).
// Neither paper gives σ; DefaultConfig takes σ = 1 mm, so the
// dimensionless steps h√(g/σ) of Table 3 run from 0.099 (h = 10⁻³ s) to
// 0.0099 (10⁻⁴ s), and a drive period of the hexagons (f = 16.2 Hz) is 206
// steps at h = 3·10⁻⁴. The masses cancel (rigid impacts): ρ is bronze's.
// The layer depends on h and σ only through h√(g/σ) (f ∝ √(g/σ), e(v)'s
// scale √(gσ), the masses cancel; up to the solvers' stopping tests), so
// Config.Sigma (--sigma) moves a run along Table 3's column: σ = 4 mm at
// h = 10⁻³ is σ = 1 mm at 5·10⁻⁴ (BENCHMARKS.md, "h = 10⁻³ and the
// sphere diameter σ").
// The spheres start on a square lattice 1.05σ apart with velocities of
// 0.05√(gσ) (deterministic in the seed).
//
// The three points of Fig. 12 (Fig12): hexagons f* = 0.38, Γ = 4.0;
// squares f* = 0.27, Γ = 3.0; stripes f* = 0.44, Γ = 3.0.
//
// Each step is spheres.System.StepImpact (Smith et al. Alg. 4; the
// islands solved concurrently). Alg. 4 lets resting contacts sink by ½gh²
// per step and lets contacts the prediction missed overlap (Smith et al.
// §12): with h = 10⁻³ s the bottom spheres of a 2,000-sphere layer at Γ = 4
// overlap the floor by up to 0.75σ (TestLayerHeightRisesWithGamma logs
// it); the position correction of package sim is not applied on this path.
//
// NewPart builds only the spheres of a region (one MPI rank's subdomain):
// the lattice and the random draws (jitter, velocities) run in New's order
// for every sphere — NormFloat64 takes a variable number of draws, so the
// sequence cannot be skipped — but only the accepted spheres are created,
// with New's IDs, bit for bit. Memory is the region's; time stays O(N)
// (about the cost of the draws). ReadStatePart likewise keeps a region's
// spheres of a state file.
//
// # Analysis
//
// Every SampleEvery drive periods, at the drive phase 0, the top surface is
// sampled on cells of about 1.5σ (HeightField: the highest sphere
// top above the floor per cell), and its deviation from the mean is Fourier
// transformed (gonum's FFT, rows then columns) into the power spectrum
// P(k) = |ĥ(k)|². The dominant wave number K is the centroid of the
// azimuthal sums S(k) = Σ_{|k′| ≈ k} P(k′) around their maximum (k ≥ 1,
// in units of 2π/L, L = max(L_x, L_y), the wave vector (a, b) having
// |k| = L·√((a/L_x)² + (b/L_y)²); only waves with λ ≥ H, as every λ of
// the dispersion relation is, so that the grain-scale roughness of the
// height field does not win) and λ = L/K. The peaks on the ring |k| ≈ K are counted
// in 36 directions (Spectrum.Analyze): 6 for hexagons, 4 for squares, 2
// for stripes. λ/H is compared with the experimental dispersion relation
// of Umbanhowar, Melo & Swinney, λ/H = 1.0 + 1.1 f*^(−1.32) (Dispersion:
// 4.95 for the hexagons, 7.19 for the squares, 4.25 for the stripes).
//
// # The shell measure
//
// Every sample is also measured as Bizon's own reproduction of the 1998
// simulation measures its runs and the published panels
// (github.com/cbizon/granular_benchmark, harness/METRICS.md; its panels:
// hexagons 25σ, squares 33.3σ, stripes 20σ on the 100σ box). GridField:
// cells of about σ (100 × 100 on Bizon's cell), the highest sphere top
// above the floor per cell, an empty cell the median of the occupied
// ones. Shells: the field smoothed by a Gaussian of 2 cells (periodic,
// truncated at 8 cells), standardized (mean removed, divided by its
// standard deviation, the "contrast"), multiplied by a 2D Hann window,
// Fourier transformed; the power summed over the shells of integer wave
// number s = round(|k| L/2π) (L = max(L_x, L_y); one shell per unit, as
// the ring sums above, but without their centroid), and the strongest
// shell with s ≥ 2 gives λ = L/s: on a 100σ cell only 50, 33.3, 25, 20,
// 16.7, … σ. The orientational orders Q_m = |Σ P e^{imθ}| / Σ P over the
// wave vectors within 0.75 of that shell (m = 2, 4, 6) classify the
// pattern; Symmetry, the m of the largest Q_m, is our counterpart of the
// peak count (stripes put their power at θ and θ + π, so all three Q_m
// are large and Q2 the largest; squares give Q4, hexagons Q6). The ring
// (Analyze) and the shell measure differ in three ways: the field
// (1.5σ cells with empty cells at 0, against σ cells with the median), the
// weighting (none, against a Gaussian smoothing that damps the power of
// shell s by e^{−4π²(2σ)²(s/L)²}, 0.78 at s = 4 and 0.67 at s = 5 on the
// 100σ cell, and the Hann window), and the wavelength (the centroid of
// the ring sums, against the integer shell). Hexagons of λ = 21.7σ in the
// 100σ cell are 25σ under the shell measure and 23.1σ under the ring
// (TestShellsQuantize).
//
// # The exact measure
//
// A height field of the periodic cell L_x × L_y holds only the wave
// vectors k = 2π(m/L_x, n/L_y), m and n integers: its DFT (the ring
// measure's Spectrum, no window: the field is periodic, so each DFT
// coefficient is one of these waves and nothing leaks between them) gives
// the power of each exactly. The ring and the shell measure both put |k|
// on integer rings or shells of 2π/L before they choose λ: |k| =
// 2π√(m² + n²)/L on a square cell is an integer only for some (m, n), so
// a pattern on (2, 1) and (−1, 2), |k| = √5 · 2π/L, is read at ring or
// shell 2, λ = L/2 = 50σ on the 100σ cell, when its wavelength is L/√5 =
// 44.72σ (TestExactOldMeasuresMisread; the squares at h = 2·10⁻⁴,
// BENCHMARKS.md "patc"). That is a defect of the measurement, not a
// property of the layer: the rounding moves λ by up to half a ring (11 %
// at |k| = 2.24, 6 % at 4.12 on the 100σ cell), the size of the 15 % band
// the wavelength is judged against. The exact measure (Spectrum.Exact)
// does not round:
//
//   - families: the wave vectors of equal |k| = 2π√((m/L_x)² + (n/L_y)²)
//     (equal to a relative 10⁻⁴, which joins no distinct |k| at λ ≥ H in
//     the runs' cells — their closest are 7.7·10⁻⁴ apart — and makes the
//     cell of --aspect 0.866 group as the √3/2 one), each family's power
//     the sum over its wave vectors (k and −k both);
//   - the dominant family: the most power among the families of λ ≥ H
//     (the bound of the ring measure, for the same reason); λ = 2π/|k| of
//     it, exactly one of the cell's wavelengths (λ/H as before);
//   - the count: the family's wave vectors (k and −k both) holding at
//     least 1/3 of the power of its strongest — 2 for stripes, 4 for
//     squares, 6 for hexagons whose waves are of one family (the √3/2
//     cell's (4, 0), (±2, 3)); 1/3 in power is an amplitude ratio of
//     1/√3 = 0.58, near the ring measure's 35 % of the strongest
//     direction. A wave vector is counted, not a direction: two
//     neighbouring wave vectors of one family count twice;
//   - the family's share of the total power, the "contrast";
//   - the resonant triads among the counted wave vectors: sets of three
//     with k₁ + k₂ + k₃ = 0, compared in the integer indices (m, n), so
//     exactly. Three wave vectors of one |k| summing to zero are 120°
//     apart: hexagons count 6 with 2 triads (k₁ + k₂ + k₃ = 0 and its
//     negative). The count alone reads any six counted vectors of a family
//     as 6 — (5, ±2) and (3, ±4) of the √3/2 cell are one family of 8 at
//     25° and 57° from the axes, a cellular pattern without a triad
//     (TestExactSynthetic). The triads were added after the runs up to
//     the tenth session; the verdicts recorded before them use the count.
//
// Over the last third of the samples, as for the other two, the most
// frequent count and the median λ/H (TestPatternsLong with
// IMPACTSIM_PATTERNS_MEASURE=exact). A family is a single |k|, not a
// band: the cell's |k| are not evenly spaced (on the 100σ cell √25 = 5
// has √26 2 % above it and √20 11 % below), so a band of fixed relative
// width would join neighbours at some |k| and not at others. The measure
// was defined and its constants fixed before it was applied to any run.
//
// # Files (Run with a directory; impactsim patterns)
//
// series.csv, one row per sample: time (s), cycles (f·t), lambda_sigma
// (λ/σ), lambda_over_H, dispersion_lambda_over_H, peaks, contrast (the
// ring's share of the spectrum's power), mean_height_sigma (the centres'
// mean height above the floor, /σ); then the shell measure of the same
// moment: shell_lambda_sigma (λ/σ, L over the strongest shell),
// shell_lambda_over_H, shell_symmetry (2, 4 or 6: the largest Q_m),
// shell_q2, shell_q4, shell_q6 and shell_contrast_sigma (the smoothed
// field's standard deviation, /σ); then the exact measure:
// exact_lambda_sigma (λ/σ of the dominant family), exact_lambda_over_H,
// exact_peaks (the count), exact_m, exact_n (the family's strongest wave
// vector, units of 2π/L_x and 2π/L_y), exact_contrast (the family's
// share of the power) and exact_triads (the counted vectors' resonant
// triads: 2 for hexagons). top.png: the last height field
// (heights coloured); side.png: the spheres of a slab 4σ thick through
// the middle of the cell seen along y (heights coloured); spectrum.png:
// log₁₀ P with the dispersion relation's ring; top.gif: the sampled
// height fields as an animation (4 frames per second, heights 0 … 2H + σ).
package patterns
