package output

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"

	"impactsim/bounded"
)

// File names inside a 2D run directory.
const (
	SceneFile      = "scene.json"
	TrajectoryFile = "trajectory.csv"
	EnergyFile     = "energy.csv"
	SummaryFile    = "summary.json"
)

// Scene2DFormat is the value of Scene2D.Format written by WriteScene2D.
const Scene2DFormat = "impactsim-scene2d"

// Scene2DVersion is the current version of the scene.json layout. Version 2
// added Shapes (2D rigid bodies); files without shapes are written as
// version 1.
const Scene2DVersion = 2

// Shape2D is the geometry of a 2D rigid body in its own frame: a circle
// (its radius is the scene's radius of the body) or a box with half extents
// Half along the body's axes.
type Shape2D struct {
	Kind string     `json:"kind"` // circle or box
	Half [2]float64 `json:"half,omitempty"`
}

// Plane2D is a static half-plane wall. Point lies on the wall and Normal
// points from the wall into the free space where the balls are: the solid
// region is {x : Normal·(x−Point) < 0}. Normal need not be unit length.
type Plane2D struct {
	Point  [2]float64 `json:"point"`
	Normal [2]float64 `json:"normal"`
}

// Drum2D is a static circular container: balls move inside the circle of
// radius Radius centred at Centre; the solid region is outside it.
type Drum2D struct {
	Centre [2]float64 `json:"centre"`
	Radius float64    `json:"radius"`
}

// Camera2D is a view hint for renderers: the view is centred on (CX, CY) and
// Scale is the world length (simulation length units) spanned by the shorter
// side of the image.
type Camera2D struct {
	CX    float64 `json:"cx"`
	CY    float64 `json:"cy"`
	Scale float64 `json:"scale"`
}

// Scene2D is the static description of a 2D ball run, stored as scene.json.
// Per-ball slices have length NumBalls and are indexed like the ball column
// of trajectory.csv.
type Scene2D struct {
	Format   string    `json:"format"`  // always Scene2DFormat
	Version  int       `json:"version"` // Scene2DVersion
	NumBalls int       `json:"num_balls"`
	Radii    []float64 `json:"radii"`
	Masses   []float64 `json:"masses"` // fixed balls: any value, conventionally 0
	Fixed    []bool    `json:"fixed"`
	Planes   []Plane2D `json:"planes"`
	Drums    []Drum2D  `json:"drums"`
	// Portals are periodic boundaries: a ball leaving through one plane
	// re-enters through the other. Drawn as dashed lines; optional.
	Portals []Plane2D `json:"portals,omitempty"`
	// Shapes, when present, makes the scene one of 2D rigid bodies: one
	// shape per body, and trajectory.csv in Rigid2DLayout (x, y, theta).
	// Radii are then the bodies' bounding radii.
	Shapes      []Shape2D `json:"shapes,omitempty"`
	Camera      *Camera2D `json:"camera,omitempty"`
	Dt          float64   `json:"dt"`
	Operator    string    `json:"operator"`
	SourceScene string    `json:"source_scene"`
}

// Validate checks the internal consistency of the scene: slice lengths equal
// to NumBalls, positive finite radii, finite masses, non-zero plane normals,
// positive drum radii and a positive camera scale.
func (s *Scene2D) Validate() error {
	if s == nil {
		return errors.New("output: nil scene")
	}
	if s.NumBalls < 0 {
		return fmt.Errorf("output: scene: num_balls %d < 0", s.NumBalls)
	}
	if len(s.Radii) != s.NumBalls {
		return fmt.Errorf("output: scene: %d radii for %d balls", len(s.Radii), s.NumBalls)
	}
	if len(s.Masses) != s.NumBalls {
		return fmt.Errorf("output: scene: %d masses for %d balls", len(s.Masses), s.NumBalls)
	}
	if len(s.Fixed) != s.NumBalls {
		return fmt.Errorf("output: scene: %d fixed flags for %d balls", len(s.Fixed), s.NumBalls)
	}
	for i, r := range s.Radii {
		if !(r > 0) || math.IsInf(r, 0) {
			return fmt.Errorf("output: scene: ball %d radius %g is not positive and finite", i, r)
		}
	}
	for i, m := range s.Masses {
		if math.IsNaN(m) || math.IsInf(m, 0) {
			return fmt.Errorf("output: scene: ball %d mass %g is not finite", i, m)
		}
	}
	if s.Shapes != nil && len(s.Shapes) != s.NumBalls {
		return fmt.Errorf("output: scene: %d shapes for %d bodies", len(s.Shapes), s.NumBalls)
	}
	for i, sh := range s.Shapes {
		if sh.Kind != "circle" && !(sh.Kind == "box" && sh.Half[0] > 0 && sh.Half[1] > 0 && finite(sh.Half[0], sh.Half[1])) {
			return fmt.Errorf("output: scene: body %d: shape %q with half extents %v, want a circle or a box with positive half extents", i, sh.Kind, sh.Half)
		}
	}
	for i, p := range s.Planes {
		if !finite(p.Point[0], p.Point[1], p.Normal[0], p.Normal[1]) {
			return fmt.Errorf("output: scene: plane %d is not finite", i)
		}
		if p.Normal[0] == 0 && p.Normal[1] == 0 {
			return fmt.Errorf("output: scene: plane %d has a zero normal", i)
		}
	}
	for i, p := range s.Portals {
		if !finite(p.Point[0], p.Point[1], p.Normal[0], p.Normal[1]) || (p.Normal[0] == 0 && p.Normal[1] == 0) {
			return fmt.Errorf("output: scene: portal plane %d is not finite or has a zero normal", i)
		}
	}
	for i, d := range s.Drums {
		if !finite(d.Centre[0], d.Centre[1], d.Radius) || !(d.Radius > 0) {
			return fmt.Errorf("output: scene: drum %d: centre must be finite and radius positive", i)
		}
	}
	if c := s.Camera; c != nil {
		if !finite(c.CX, c.CY, c.Scale) || !(c.Scale > 0) {
			return fmt.Errorf("output: scene: camera: centre must be finite and scale positive")
		}
	}
	if math.IsNaN(s.Dt) || math.IsInf(s.Dt, 0) || s.Dt < 0 {
		return fmt.Errorf("output: scene: dt %g is not finite and non-negative", s.Dt)
	}
	return nil
}

// WriteScene2D validates s and writes it as dir/scene.json (indented JSON,
// atomically). Format and Version are filled in if empty. The directory is
// created if needed.
func WriteScene2D(dir string, s *Scene2D) error {
	if err := s.Validate(); err != nil {
		return err
	}
	c := *s
	if c.Format == "" {
		c.Format = Scene2DFormat
	}
	if c.Version == 0 {
		c.Version = 1
		if c.Shapes != nil {
			c.Version = 2
		}
	}
	// Write [] rather than null for empty lists: friendlier to other readers.
	if c.Radii == nil {
		c.Radii = []float64{}
	}
	if c.Masses == nil {
		c.Masses = []float64{}
	}
	if c.Fixed == nil {
		c.Fixed = []bool{}
	}
	if c.Planes == nil {
		c.Planes = []Plane2D{}
	}
	if c.Drums == nil {
		c.Drums = []Drum2D{}
	}
	return WriteJSON(filepath.Join(dir, SceneFile), &c)
}

// ReadScene2D reads and validates dir/scene.json. Unknown fields are
// rejected so that typos in hand-written files are reported.
func ReadScene2D(dir string) (*Scene2D, error) {
	path := filepath.Join(dir, SceneFile)
	f, err := bounded.OpenText(path, bounded.Text, "scene description")
	if err != nil {
		return nil, fmt.Errorf("output: %w", err)
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	dec.DisallowUnknownFields()
	var s Scene2D
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("output: %s: %w", path, err)
	}
	if s.Format != "" && s.Format != Scene2DFormat {
		return nil, fmt.Errorf("output: %s: format %q, want %q", path, s.Format, Scene2DFormat)
	}
	if s.Version > Scene2DVersion {
		return nil, fmt.Errorf("output: %s: version %d is newer than supported %d", path, s.Version, Scene2DVersion)
	}
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("%w (in %s)", err, path)
	}
	return &s, nil
}

// WriteJSON writes v as indented JSON (two spaces, trailing newline) to path
// through path+".tmp" and a rename. The parent directory is created if
// needed. NaN and ±Inf cannot be represented in JSON and make it fail.
func WriteJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("output: encoding %s: %w", path, err)
	}
	data = append(data, '\n')
	return writeFileAtomic(path, data)
}

func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// Layout returns the trajectory layout of the scene's run: Rigid2DLayout
// with shapes, BallLayout without.
func (s *Scene2D) Layout() Layout {
	if s.Shapes != nil {
		return Rigid2DLayout
	}
	return BallLayout
}
