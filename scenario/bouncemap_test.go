package scenario

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/bouncemap"
	"impactsim/rigid3d"
	"impactsim/scene"
)

// rodFiles writes a rod (capsule) OBJ and its bounce map (12 modes, coarse)
// into dir and returns the map.
func rodFiles(t *testing.T, dir string) *bouncemap.Map {
	t.Helper()
	vs, fs := rigid3d.CapsuleMesh(0.01, 0.18, 16, 4, 12)
	var obj bytes.Buffer
	if err := rigid3d.WriteOBJ(&obj, vs, fs); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "rod.obj"), obj.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	mp, _, err := bouncemap.Build(vs, fs, bouncemap.BuildOptions{Source: "rod.obj", Modes: 12, Cells: 20})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := mp.Write(&buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "rod.bmap"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return mp
}

const rodScene = `<rigidbody3d_scene>
<integrator type="dmv" dt="0.0001"/>
<impact_operator type="grr" CoR="0.3" v_tol="1e-9"/>
<geometry type="mesh" filename="rod.obj"/>
<geometry type="sphere" r="0.05"/>
%s
<rigid_body_with_density x="0 0 0.101" v="0 0 -1" omega="0 0 0" rho="2000" fixed="0" geo_idx="0"/>
<rigid_body_with_density x="1 0 0.2" v="0 0 0" omega="0 0 0" rho="2000" fixed="0" geo_idx="1"/>
<static_plane x="0 0 0" n="0 0 1"/>
</rigidbody3d_scene>
`

// TestBounceMapScene: a scene's <bounce_map> gives its rod the map's
// restitution at the contact (the rod bounces at ε·1 m/s, the map value at
// its pole), α scales it, and bad elements are one FILE:LINE message.
func TestBounceMapScene(t *testing.T) {
	dir := t.TempDir()
	mp := rodFiles(t, dir)
	want := mp.Lookup(rigid3dVec(0, 0, -0.1), rigid3dVec(0, 0, -1))
	for _, alpha := range []float64{1, 0.5} {
		path := filepath.Join(dir, "drop.xml")
		os.WriteFile(path, []byte(fmt.Sprintf(rodScene, fmt.Sprintf(`<bounce_map geo_idx="0" file="rod.bmap" alpha="%g"/>`, alpha))), 0o644)
		sc, err := scene.LoadRigidBody3D(path)
		if err != nil {
			t.Fatal(err)
		}
		r, err := NewRigid3D(sc, Options{})
		if err != nil {
			t.Fatal(err)
		}
		st := r.Stepper
		for k := 0; k < 40 && st.V[2] < 0; k++ {
			if err := st.Step(); err != nil {
				t.Fatal(err)
			}
		}
		if got := st.V[2]; abs(got-alpha*want) > 1e-9 {
			t.Errorf("α = %v: rebound %.12f m/s, want α·ε = %.12f", alpha, got, alpha*want)
		}
	}
	for _, c := range []struct{ elems, want string }{
		{`<bounce_map geo_idx="1" file="rod.bmap"/>`, `drop.xml:6: bounce_map attribute "geo_idx": expected a mesh geometry (geometry 1 on line 5 is a sphere)`},
		{`<bounce_map geo_idx="7" file="rod.bmap"/>`, `drop.xml:6: bounce_map attribute "geo_idx"`},
		{`<bounce_map geo_idx="0" file="rod.bmap" alpha="1.5"/>`, `drop.xml:6: bounce_map attribute "alpha"`},
		{`<bounce_map geo_idx="0" file="rod.bmap" lookup="cubic"/>`, `drop.xml:6: bounce_map attribute "lookup"`},
		{`<bounce_map geo_idx="0" file="rod.bmap"/><bounce_map geo_idx="-2" file="rod.bmap"/>`, `drop.xml:6: duplicate <bounce_map> for geometry 0 (first on line 6)`},
		{`<bounce_map geo_idx="0" file="missing.bmap"/>`, `drop.xml:6: bounce_map: open`},
		{`<bounce_map geo_idx="0" file="bad.bmap"/>`, `drop.xml:6: bounce_map:`},
		{`<bounce_map geo_idx="0" file="other.bmap"/>`, `bounce map is for another surface`},
		{`<bounce_map geo_idx="0" file="rod.bmap"/><bounce_map_combiner name="median"/>`, `drop.xml:6: bounce_map_combiner attribute "name": bouncemap: combiner "median"`},
	} {
		os.WriteFile(filepath.Join(dir, "bad.bmap"), []byte("impactsim-bouncemap 1\nsurface 1 2 3\n"), 0o644)
		other := *mp
		other.Shape = "sha256:" + strings.Repeat("0", 64)
		var buf bytes.Buffer
		other.Write(&buf)
		os.WriteFile(filepath.Join(dir, "other.bmap"), buf.Bytes(), 0o644)
		path := filepath.Join(dir, "drop.xml")
		os.WriteFile(path, []byte(fmt.Sprintf(rodScene, c.elems)), 0o644)
		sc, err := scene.LoadRigidBody3D(path)
		if err == nil {
			_, err = NewRigid3D(sc, Options{})
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.elems, err, c.want)
		}
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func rigid3dVec(x, y, z float64) r3.Vec { return r3.Vec{X: x, Y: y, Z: z} }
