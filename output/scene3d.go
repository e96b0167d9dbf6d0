package output

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"impactsim/bounded"
)

// Scene3DFile is the static description of a 3D rigid-body run.
const Scene3DFile = "scene3d.json"

// Scene3D is scene3d.json: what a renderer needs to draw a 3D rigid-body
// run whose states are in trajectory.csv (Rigid3DLayout).
type Scene3D struct {
	Kind   string    `json:"kind"` // always "rigid3d"
	Dt     float64   `json:"dt"`
	Camera *Camera3D `json:"camera,omitempty"`
	Bodies []Shape3D `json:"bodies"`
	Planes []Plane3D `json:"planes"`
}

// Shape3D is one body: a sphere of radius R, a box of half extents Half or a
// triangle mesh (vertices in the body frame, faces as vertex indices).
type Shape3D struct {
	Shape    string       `json:"shape"` // sphere, box or mesh
	R        float64      `json:"r,omitempty"`
	Half     [3]float64   `json:"half,omitempty"`
	Vertices [][3]float64 `json:"vertices,omitempty"`
	Faces    [][3]int     `json:"faces,omitempty"`
	Mass     float64      `json:"mass"`
	Fixed    bool         `json:"fixed"`
}

// Camera3D is a perspective view hint: eye, look-at point and up vector.
type Camera3D struct {
	Eye    [3]float64 `json:"eye"`
	LookAt [3]float64 `json:"lookat"`
	Up     [3]float64 `json:"up"`
}

// Plane3D is a static plane through X with normal N.
type Plane3D struct {
	X [3]float64 `json:"x"`
	N [3]float64 `json:"n"`
}

// WriteScene3D writes s as dir/scene3d.json (indented JSON, atomically);
// Kind is set to "rigid3d".
func WriteScene3D(dir string, s *Scene3D) error {
	c := *s
	c.Kind = "rigid3d"
	return WriteJSON(filepath.Join(dir, Scene3DFile), &c)
}

// ReadScene3D reads dir/scene3d.json. ok is false when the directory has no
// such file (it is then not a 3D run); a file that is not a rigid3d scene
// description is an error.
func ReadScene3D(dir string) (s *Scene3D, ok bool, err error) {
	path := filepath.Join(dir, Scene3DFile)
	if _, err := os.Stat(path); err != nil {
		return nil, false, nil
	}
	data, err := bounded.ReadTextFile(path, bounded.Text, "scene description")
	if err != nil {
		return nil, true, fmt.Errorf("output: %w", err)
	}
	s = &Scene3D{}
	if err := json.Unmarshal(data, s); err != nil || s.Kind != "rigid3d" {
		return nil, true, fmt.Errorf("%s: not a rigid3d scene description", path)
	}
	return s, true, nil
}
