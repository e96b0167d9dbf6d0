// Package output turns simulation results into files a person can open: a
// plain-text run directory for 2D ball simulations, VTK files for ParaView,
// rendered PNG/GIF/MP4 animations, PNG line plots and a terminal progress
// bar.
//
// The package imports no other impactsim package but bounded (the size
// limits of the files it reads). It works on its own plain
// data types (Scene2D, Trajectory, Series, ...); the command-line glue copies
// simulation state into them.
//
// # Atomic and streamed writes
//
// Files written whole (scene descriptions, summary.json, PNG, VTK) are
// first written as NAME.tmp in the same directory and renamed to NAME when
// complete, so a reader never sees a truncated one. The files of a run
// that grow as it goes (trajectory.csv through TrajectoryWriter, energy.csv
// through NewLiveSeriesWriter) are written in place instead, one write
// system call per frame or row: a reader, or whatever a killed run leaves
// behind, sees whole frames and rows plus at most one cut at the end,
// which ReadTrajectoryPrefix and ReadSeries leave out, and a full disk
// fails the Write that meets it. Summary.json's status (see below) says
// whether a run directory is complete. ClearRunDir removes an earlier
// run's files before a new run starts, so a directory holds one run only.
// Callers validate their inputs before creating any writer, so bad input
// leaves nothing half-written.
//
// # Run directory of a 2D ball simulation
//
// (The run directories of the other systems differ only in the scene
// description and the trajectory layout; see "Trajectories of other
// systems" below.) A run directory holds up to four files:
//
//	scene.json       static description of the scene (WriteScene2D, ReadScene2D)
//	trajectory.csv   ball states at the saved frames (TrajectoryWriter, ReadTrajectory)
//	energy.csv       per-step diagnostics (NewSeriesWriter with EnergyHeader, ReadSeries)
//	summary.json     free-form run summary (WriteJSON)
//
// All quantities are in the simulation's own consistent units; impactsim
// uses SI units (metres, kilograms, seconds) unless a scene says otherwise.
// Numbers in the CSV files are written by strconv.FormatFloat(x, 'g', -1, 64):
// the shortest decimal string that reads back to the same float64, with
// exponents like 1e-07; non-finite values appear as NaN, +Inf and -Inf.
// Files are UTF-8 with "\n" line ends and no quoting; readers also accept
// "\r\n" and skip blank lines.
//
// # scene.json
//
// One JSON object (indented by two spaces) with these fields:
//
//	format        string    always "impactsim-scene2d"
//	version       int       layout version, currently 1
//	num_balls     int       number of balls n
//	radii         [n]float  ball radii (length), all > 0
//	masses        [n]float  ball masses (mass); for fixed balls any value, conventionally 0
//	fixed         [n]bool   true for balls that never move (infinite mass)
//	planes        [{point: [x, y], normal: [nx, ny]}]
//	              static walls; point lies on the wall, normal (not necessarily
//	              unit) points into the free space where the balls are; the
//	              solid region is normal·(p − point) < 0
//	drums         [{centre: [x, y], radius: r}]
//	              static circular containers; balls move inside, the solid is outside
//	camera        {cx, cy, scale} or absent
//	              optional view hint: view centre (cx, cy) and the world length
//	              spanned by the shorter side of a rendered image
//	dt            float     time step (time), ≥ 0
//	operator      string    name of the impact operator used, e.g. "gr" or "lcp"
//	source_scene  string    path of the scene file the run was made from
//
// Per-ball arrays are indexed by the ball number used in trajectory.csv.
// Empty lists are written as []. ReadScene2D rejects unknown fields and
// inconsistent lengths.
//
// # trajectory.csv
//
// A header line, then one row per ball per saved frame:
//
//	frame,time,ball,x,y,vx,vy
//	0,0,0,0.5,0.5,1,0
//	0,0,1,3,3,0,-1
//	1,0.25,0,0.75,0.5,1,0
//	...
//
// Columns:
//
//	frame  integer ≥ 0, the saved frame's number; strictly increasing from
//	       one frame to the next (frames need not be consecutive: the
//	       number may count time steps)
//	time   simulation time of the frame (time); the same on all its rows
//	ball   ball index 0..n−1; each frame lists every ball once, in order
//	x, y   ball centre position (length)
//	vx, vy ball velocity (length/time)
//
// Every frame of a run whose bodies do not change has the same number of
// balls, num_balls of scene.json; such files are exactly those of earlier
// versions. A scripted scene that inserts or deletes bodies (SCISim's
// insertBall, addBody, delete_bodies) writes frames that differ in their
// number of rows: each frame lists the bodies it has, 0..n−1 in the
// order of the state at that time (a deletion renumbers the bodies after
// the deleted ones, as SCISim does), and a frame without bodies has no
// row, so its number is missing from the file. The bodies of such a run
// are described anew, from the first frame saved after each change, in
// scenes/frame_K/scene.json (SceneChangesDir, ReadSceneChanges2D); the
// run directory's scene.json describes the frames before. Each
// frame_K directory appears whole (WriteSceneChange writes a hidden
// .frame_K.partial and renames it), so a killed run leaves none without
// its description; readers skip the partial ones. A reader counts
// each frame's rows (Frame.Bodies; Trajectory.Varying). ReadTrajectory
// reports malformed input as "output: DIR/trajectory.csv:LINE: what is
// wrong". In memory a frame is Frame{Index, Time, Q, V} with flat Q and V:
// ball i at [2i, 2i+1].
//
// # energy.csv
//
// A header line, a row for the initial state (step 0) and one row per time
// step. The columns (EnergyColumns; EnergyHeader for 2D balls):
//
//	step               time-step number (integer)
//	time               simulation time (time)
//	kinetic            kinetic energy of the moving bodies (energy)
//	potential          potential energy, e.g. gravitational Σ m g y (energy)
//	total              kinetic + potential (energy)
//	px, py[, pz]       total linear momentum Σ m v (mass·length/time); pz in 3D
//	contacts           number of active contacts at this step
//	impact_iterations  iterations used by the contact law at this step (GR
//	                   reflections, pairwise sweeps, Gauss–Seidel sweeps)
//	seconds            wall-clock time spent on this step (s)
//	capped             number of the contact law's solves at this step that
//	                   stopped at their user-set iteration cap before their
//	                   tolerance (Coulomb Gauss–Seidel of SCISim's
//	                   sobogus_friction_solver: its max_iters); the step went
//	                   on with the law's answer at the cap (the best evaluated
//	                   iterate, as so-bogus) (0 normally)
//	residual           the contact law's residual at this step: for the
//	                   Coulomb Gauss–Seidel so-bogus's error, the largest
//	                   squared Fischer–Burmeister residual of Coulomb's law
//	                   over the contacts (compare with the scene's tol, as
//	                   SCISim's warning), for QP-based operators the largest
//	                   relative KKT residual of their inner solves; 0 without
//	                   contacts
//	wall_work          work done on the bodies by moving geometry (driven
//	                   walls, kinematic bodies, Lees–Edwards images) from
//	                   the start of the run to this step (energy); with it
//	                   total − total(0) − wall_work = −(energy dissipated in
//	                   the contacts), zero for elastic GR (0 for static
//	                   scenes)
//	overlap            the deepest penetration max(0, −gᵢ) at the step's end
//	                   (after the position correction, if any) among the
//	                   step's contacts and those the correction found it
//	                   missed (length; 0 without contacts; NaN for systems
//	                   that cannot evaluate gaps, rigid2d)
//	correction_pe      the potential energy the position correction added at
//	                   this step (energy; 0 without correction; the kinetic
//	                   energy is untouched, so total − correction_pe is what
//	                   the step alone did to the energy)
//	correction_passes  projection passes of the position correction at this
//	                   step (0: nothing penetrated beyond its tolerance, or
//	                   no correction)
//	redetect_rounds    re-solves of the contact law on an enlarged active set
//	                   at this step (--redetect, the closed active set;
//	                   0 without it)
//	redetect_added     contacts the closure added to Alg. 4's active set
//	redetect_missing   contacts of the step's final motion still outside
//	                   the set when the closure reached its re-solve cap
//	                   (0: the set is closed)
//
// Integer columns are written as integral floats ("12"). SeriesWriter writes
// any such numeric CSV with a header of your choice, and ReadSeries reads it
// back as columns.
//
// # summary.json
//
// Whatever value the caller passes to WriteJSON, marshalled by encoding/json
// with two-space indentation and a final newline. NaN and ±Inf are not
// representable in JSON and make WriteJSON fail. The run command writes
// runner.Summary when the run starts, at every saved frame (and at least
// every 10 s) and at the end, each time whole (atomically): scene, system
// (ball2d, rigid2d, rigid3d), status ("running" while the run goes on —
// and after it was killed: the directory then holds its whole frames —,
// "complete", or "failed" with error), started (RFC 3339) and pid (the
// run the directory holds), law, mapping, bodies, integrator, dt, steps,
// end_time, frames (frames in trajectory.csv), wall_seconds (from the
// start of the set-up), setup_seconds, steps_with_contacts,
// max_contacts, max_operator_iterations, capped_steps (steps with a capped
// solve, see energy.csv), worst_capped_residual, capped_tolerance and
// first_capped_step (absent when no step was capped),
// redetect_capped_steps and first_redetect_capped_step (steps whose
// closed active set reached its re-solve cap; absent when none), energy_initial,
// energy_final, max_relative_energy_drift, wall_work (energy.csv's last
// wall_work), momentum_initial and
// momentum_final (2 or 3 components), output_dir, error (absent after a
// successful run) and files. A run whose number of bodies changed (a
// scripted scene inserting or deleting bodies) adds body_changes: min,
// max and final number of bodies (bodies is the initial one), steps (in
// which it changed), inserted, deleted, scene_files (the descriptions
// under scenes/), and momentum_added and energy_added, the momentum and
// energy of the bodies inserted minus those of the bodies deleted,
// measured across the steps' start and end hooks (a script's startOfStep,
// where SCISim's scripts insert and delete, and endOfStep), so that momentum_final −
// momentum_initial − momentum_added is the momentum the contacts, walls and
// gravity gave; max_relative_energy_drift is then measured from
// energy_initial + energy_added. energy.csv's rows stay those of the
// whole system at each step (its momentum and energy jump where bodies
// come and go); trajectory.csv gives the number of bodies of each frame.
//
// # Trajectories of other systems
//
// Every system's trajectory.csv has the same shape, described by a Layout:
// frame, time and the body index, then the body's position and velocity
// columns, one row per body per saved frame (NewLayoutTrajectoryWriter,
// ReadLayoutTrajectory). BallLayout is the 2D ball format above.
// Rigid3DLayout (3D rigid bodies) is
//
//	frame,time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz
//
// centre of mass, unit orientation quaternion (w first), linear velocity
// and angular velocity in world coordinates, written with 17 significant
// digits (times with 10). Its static description is scene3d.json (Scene3D:
// kind "rigid3d", dt, optional camera {eye, lookat, up}, bodies [{shape
// sphere|box|mesh, r, half, vertices, faces, mass, fixed}], planes [{x, n}]).
//
// Rigid2DLayout (2D rigid bodies) is
//
//	frame,time,body,x,y,theta,vx,vy,omega
//
// centre, angle (counter-clockwise, radians), velocity and angular velocity,
// at full precision like the ball layout. Its scene.json is a Scene2D with
// "shapes" (version 2): one {kind circle|box, half [a, b]} per body, and
// radii the bodies' bounding radii. Renderers draw boxes rotated and
// circles with a radius marking their angle.
//
// # VTK files for ParaView
//
// WriteVTP writes VTK XML PolyData (.vtp, VTKFile version 1.0,
// byte_order LittleEndian, header_type UInt64) with NumberOfPoints points,
// one vertex cell per point (Verts connectivity 0..n−1, offsets 1..n, Int64)
// and point-data arrays in the order given, all Float64. With VTKASCII the
// values are decimal text; with VTKBinary each array is inline base64
// (format="binary"): the 8-byte little-endian byte count and then the raw
// little-endian values, encoded as two separately padded base64 blocks.
// A scalar array named "radius" becomes the active scalars: in ParaView
// apply Glyph with glyph type Sphere, scale array "radius" and scale
// factor 2 (the default sphere has radius 0.5) to see every ball at its
// size.
//
// PVDWriter writes a ParaView collection (.pvd):
//
//	<VTKFile type="Collection" version="0.1" byte_order="LittleEndian">
//	  <Collection>
//	    <DataSet timestep="0.25" group="" part="0" file="balls_00001.vtp"/>
//	    ...
//
// with file names relative to the .pvd file. Opening the .pvd in ParaView
// loads the whole series with its times. A run whose script inserts or
// deletes bodies writes each frame's .vtp with the bodies of that frame
// (a frame without bodies has zero points), so ParaView shows them come
// and go. ExportVTK2D converts a 2D
// trajectory into balls_NNNNN.vtp files (z = 0; arrays radius, mass, fixed,
// id, velocity, speed) plus balls.pvd.
//
// A run across MPI ranks (impactsim run under mpirun --vtk) writes each
// frame in pieces: every rank writes its own balls, sorted by global id,
// with WriteVTP to vtk/frame_NNNNN_rRRRR.vtp (PieceFile; arrays radius,
// velocity and id, the ball's global id as Float64, exact below 2⁵³),
// and rank 0 writes, once every piece is in place, the parallel index
// vtk/frame_NNNNN.pvtp (WritePVTP):
//
//	<VTKFile type="PPolyData" version="1.0" byte_order="LittleEndian" header_type="UInt64">
//	  <PPolyData GhostLevel="0">
//	    <PPointData Scalars="radius" Vectors="velocity">
//	      <PDataArray type="Float64" Name="radius" NumberOfComponents="1"/>
//	      ...
//	    <PPoints> <PDataArray type="Float64" Name="Points" NumberOfComponents="3"/> </PPoints>
//	    <Piece Source="frame_00012_r0000.vtp"/>
//	    <Piece Source="frame_00012_r0001.vtp"/>
//	    ...
//
// and lists the .pvtp files in vtk/trajectory.pvd, the series ParaView
// opens. Pieces and indexes are written to a .tmp file and renamed: a
// reader never finds a truncated file under its final name, nor an index
// naming a piece not yet written (a job killed mid-frame may leave .tmp
// files and pieces of a frame with no index).
//
// # Rendering
//
// Render2D and RenderPanels draw frames with github.com/fogleman/gg: moving
// balls as antialiased discs with a thin dark outline, coloured by index
// (BallColor) or by speed (SpeedColor, blue → red from 0 to the largest
// speed); fixed balls grey; walls as a shaded solid half-plane with a dark
// boundary line; drums as a dark rim with the outside shaded; the frame's
// time at the top left and the title at the top centre. The world's y axis
// points up. The view is the camera hint of scene.json or, without one, the
// bounding box of every ball in every frame (plus drums and the nearby part
// of each wall) with a 5% margin on each side, aspect ratio preserved.
//
// Products, in RenderOptions.Dir:
//
//	frame_00000.png ...  one PNG per rendered frame, numbered 0, 1, 2, ... in
//	                     rendering order (not by the trajectory's frame column)
//	animation.gif        looping GIF, delay round(100/fps) hundredths of a
//	                     second (at least 2), fixed 256-colour palette that
//	                     contains the scene's colours exactly; frames after the
//	                     first store only the changed rectangle
//	animation.mp4        made by ffmpeg found on PATH, fed raw RGBA frames on
//	                     stdin; ffmpeg's default MP4 codec (H.264 where ffmpeg
//	                     has libx264), yuv420p, odd sizes padded by one pixel.
//	                     If ffmpeg is missing the MP4 is skipped and
//	                     RenderInfo.Notes says so
//
// Existing frame_NNNNN.png files in the directory are deleted first so the
// directory holds exactly one render's frames. The GIF is assembled in
// memory: for very long runs use Stride or MaxFrames.
//
// RenderPanels lays several (title, trajectory, scene) panels out side by
// side, e.g. the "gr" and "lcp" operators breaking the same pool rack;
// panels without a camera hint share one view fitted to all of them, so
// the same scene is drawn at the same scale in each.
//
// Render3D draws 3D frames with a z-buffer and flat shading, the frame's
// time at the top left and Render3DOptions.Title (the operator) at the top
// centre; bodies marked in Render3DOptions.Cutaway (closed containers:
// render picks the bodies whose bounding box holds a smaller body's centre)
// are drawn without their near half, so their contents show.
//
// # Plots
//
// PlotSeries draws a PNG line chart (800×500 by default) with a frame,
// grid, tick labels, axis labels, title and a legend (in the first corner
// of the plot area where it covers no curve, else beside it), using gg and the
// 7×13 bitmap font of golang.org/x/image/font/basicfont (magnified for
// large images). Long series are reduced to the minimum and maximum of each
// pixel column before drawing.
//
// # Progress
//
// Progress shows "label  42% [============>                 ] 4.2s ETA 5.8s"
// on a terminal, redrawn in place at most ten times a second; when the
// writer is not a terminal it prints a plain line at each further 10%
// instead. Nothing at all appears for runs shorter than about 2 s.
package output
