package output

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func testScene() *Scene2D {
	return &Scene2D{
		NumBalls: 3,
		Radii:    []float64{0.5, 0.5, 0.3},
		Masses:   []float64{1, 1, 0},
		Fixed:    []bool{false, false, true},
		Planes: []Plane2D{
			{Point: [2]float64{0, 0}, Normal: [2]float64{0, 1}},
			{Point: [2]float64{-1, 0}, Normal: [2]float64{1, 0}},
			{Point: [2]float64{6, 0}, Normal: [2]float64{-1, 0.2}},
		},
		Dt:          1e-3,
		Operator:    "gr",
		SourceScene: "scenes/test.json",
	}
}

func TestSceneRoundTrip(t *testing.T) {
	dir := t.TempDir()
	sc := testScene()
	sc.Drums = []Drum2D{{Centre: [2]float64{1, 2}, Radius: 5}}
	sc.Camera = &Camera2D{CX: 1, CY: 2, Scale: 12}
	if err := WriteScene2D(dir, sc); err != nil {
		t.Fatal(err)
	}
	got, err := ReadScene2D(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := *sc
	want.Format, want.Version = Scene2DFormat, 1 // version 1: no shapes
	if !reflect.DeepEqual(got, &want) {
		t.Fatalf("got %+v\nwant %+v", got, &want)
	}
	// Field names on disk are the documented ones.
	data, _ := os.ReadFile(filepath.Join(dir, SceneFile))
	var m map[string]any
	json.Unmarshal(data, &m)
	for _, k := range []string{"format", "version", "num_balls", "radii", "masses", "fixed", "planes", "drums", "camera", "dt", "operator", "source_scene"} {
		if _, ok := m[k]; !ok {
			t.Errorf("scene.json lacks %q", k)
		}
	}
}

func TestSceneEmptyListsAreArrays(t *testing.T) {
	dir := t.TempDir()
	if err := WriteScene2D(dir, &Scene2D{}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, SceneFile))
	if strings.Contains(string(data), "null") || strings.Contains(string(data), "camera") {
		t.Errorf("scene.json:\n%s", data)
	}
}

func TestSceneValidate(t *testing.T) {
	bad := []func(s *Scene2D){
		func(s *Scene2D) { s.Radii = s.Radii[:2] },
		func(s *Scene2D) { s.Masses = nil },
		func(s *Scene2D) { s.Fixed = append(s.Fixed, true) },
		func(s *Scene2D) { s.Radii[1] = 0 },
		func(s *Scene2D) { s.Masses[0] = math.NaN() },
		func(s *Scene2D) { s.Planes[0].Normal = [2]float64{} },
		func(s *Scene2D) { s.Drums = []Drum2D{{Radius: -1}} },
		func(s *Scene2D) { s.Camera = &Camera2D{Scale: 0} },
		func(s *Scene2D) { s.Dt = math.Inf(1) },
	}
	for i, f := range bad {
		s := testScene()
		f(s)
		dir := t.TempDir()
		if err := WriteScene2D(dir, s); err == nil {
			t.Errorf("case %d: no error", i)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 0 {
			t.Errorf("case %d: files written for an invalid scene", i)
		}
	}
}

func TestReadSceneUnknownField(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, SceneFile), []byte(`{"num_balls":0,"radiuses":[]}`), 0o644)
	if _, err := ReadScene2D(dir); err == nil || !strings.Contains(err.Error(), "radiuses") {
		t.Fatalf("err = %v", err)
	}
}

func TestWriteJSON(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", SummaryFile)
	if err := WriteJSON(path, map[string]any{"b": 1, "a": []int{1, 2}}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	want := "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": 1\n}\n"
	if string(data) != want {
		t.Fatalf("got %q", data)
	}
	if err := WriteJSON(path, math.NaN()); err == nil {
		t.Fatal("NaN accepted")
	}
	if data2, _ := os.ReadFile(path); string(data2) != want {
		t.Fatal("failed WriteJSON damaged the existing file")
	}
}

func TestSeriesWriter(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, EnergyFile)
	w, err := NewSeriesWriter(path, EnergyHeader)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(0, 0, 1.5, -2, -0.5, 0.1, 0, 3, 12, 0.001, 0, 1e-13, 0, 2e-7, 1e-5, 1, 0, 0, 0); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(1, 2); err == nil {
		t.Fatal("short row accepted")
	}
	if err := w.Close(); err == nil {
		t.Fatal("Close after a failed Write returned nil")
	}
	if _, err := os.Stat(path); err == nil {
		t.Fatal("file created despite failed write")
	}

	w, _ = NewSeriesWriter(path, []string{"step", "e"})
	w.Write(0, 1.25)
	w.Write(1, math.Inf(-1))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if string(data) != "step,e\n0,1.25\n1,-Inf\n" {
		t.Fatalf("got %q", data)
	}
	tb, err := ReadSeries(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(tb.Header, []string{"step", "e"}) || tb.Column("e")[0] != 1.25 || !math.IsInf(tb.Column("e")[1], -1) {
		t.Fatalf("got %+v", tb)
	}
	if _, err := NewSeriesWriter(path, []string{"a,b"}); err == nil {
		t.Fatal("bad column name accepted")
	}
	os.WriteFile(path, []byte("a,b\n1,2\n3\n"), 0o644)
	if _, err := ReadSeries(path); err == nil || !strings.Contains(err.Error(), EnergyFile+":3:") {
		t.Fatalf("err = %v", err)
	}
}
