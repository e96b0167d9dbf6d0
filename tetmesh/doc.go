// Package tetmesh holds tetrahedral volume meshes: filling a closed
// triangle surface with tetrahedra, reading and writing TetGen's .node/.ele
// files for users who bring better meshes, element quality, and point
// location.
//
// # Meshing a surface (FromSurface)
//
// The surface (a closed, consistently outward-oriented triangle mesh, as
// rigid3d.NewMesh accepts) is overlaid with a cubic lattice of spacing
// h = (longest side of the bounding box)/Cells, centred on the box. A cell
// is kept when its centre is inside the surface: along each lattice row in
// x the surface crossings beyond a point, counted with the sign of the
// crossed triangle's normal x component, sum to its winding number, 1
// inside and 0 outside (the rows are shifted by 1e-7·h off the centres so
// that rows through the edges of axis-aligned surfaces miss them; a row
// that still hits an edge exactly is an error). Of the face-connected
// parts of the kept cells the largest is meshed (Report.Parts and
// Report.Dropped say what was left out: thin features need more cells).
// Each cube is split into the six Kuhn (Freudenthal) tetrahedra along its
// main diagonal, 0 → e_a → e_a + e_b → (1, 1, 1) for the six permutations
// (a, b, c); all cubes use the same diagonal, so neighbouring cubes share
// face diagonals and the mesh conforms. The Kuhn tetrahedron has dihedral
// angles 45°, 60° and 90° and radius ratio 3 r_in / R_circ = 0.717.
//
// With Options.Snap each vertex of the voxel boundary (in index order) is
// moved to its closest point on the surface (the exact point–triangle
// distance over the triangles near it), or half or a quarter of the way
// when the full move would leave a tetrahedron around it with radius ratio
// below Options.MinRatio (default 0.2); Report counts the three outcomes.
// Snapping removes most of the staircase: a sphere at 16 cells across
// keeps 0.5% of its volume error instead of 1.7%, and the worst
// tetrahedron keeps the floor.
//
// This is a simple mesher with guaranteed element quality (the floor) but
// no guarantee of topology for features thinner than about 2h. For
// production meshes, mesh the surface with TetGen (tetgen -pq1.2a… file.poly
// or file.off) and read the result with ReadTetGen.
//
// # TetGen files (ReadTetGen, WriteTetGen)
//
//	.node  first line:  <points> 3 <attributes> <boundary markers 0|1>
//	       then:        <index> <x> <y> <z> [attributes…] [marker]
//	.ele   first line:  <tetrahedra> 4 <attributes>
//	       then:        <index> <n1> <n2> <n3> <n4> [attributes…]
//
// '#' starts a comment. Indices start at the first point's index (0 or 1)
// and are consecutive; tetrahedra refer to points by index. Only linear
// 4-node tetrahedra are accepted. Tetrahedra of negative orientation are
// reoriented. Errors name the file and the line.
//
// # Validity (Mesh.Validate)
//
// Every index in range, every vertex finite and used, four distinct
// vertices and positive volume per tetrahedron, radius ratio ≥ 1e-6 (a
// flatter element is degenerate), no face shared by more than two
// tetrahedra, and one face-connected piece.
//
// # Point location (Locator)
//
// A uniform grid of the tetrahedra's bounding boxes (cells of about the
// mean edge length); Locate returns the tetrahedron holding a point, or for
// a point outside the mesh the nearest tetrahedron with the barycentric
// coordinates of its point closest to the query (so interpolated fields
// are those of the nearest point of the mesh).
package tetmesh
