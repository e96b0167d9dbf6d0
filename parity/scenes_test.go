package parity

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSCISimScenes: every SCISim asset scene of the systems listed in
// ../SCISIM-SCENES.md (copied in testdata) either runs — it is read, built
// and stepped 20 times — or is refused with one line FILE:LINE naming the
// element; and the file lists it with that status.
func TestSCISimScenes(t *testing.T) {
	listed := readSceneList(t, "../SCISIM-SCENES.md")
	for _, system := range []string{"ball2d", "rigidbody2d"} {
		root := filepath.Join("testdata", system)
		n := 0
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !assetName.MatchString(d.Name()) {
				return err // not one of SCISim's files (.mumps-*, *.tol1e-24.xml variants)
			}
			n++
			rel := filepath.ToSlash(strings.TrimPrefix(p, root+string(filepath.Separator)))
			status := "runs"
			if _, err := Simulate(system, p, 20); err != nil {
				msg := err.Error()
				if !regexp.MustCompile(`^`+regexp.QuoteMeta(p)+`:\d+: `).MatchString(msg) || strings.Contains(msg, "\n") {
					t.Errorf("%s: neither runs nor is refused with one FILE:LINE line: %v", p, err)
					return nil
				}
				status = "refused"
			}
			if got, ok := listed[system][rel]; !ok || !strings.HasPrefix(got, status) {
				t.Errorf("%s %s %s, but SCISIM-SCENES.md says %q", system, rel, status, got)
			}
			return nil
		})
		if err != nil || n < 60 {
			t.Fatalf("%s: %d scenes (%v)", system, n, err)
		}
	}
}

// assetName matches the names of SCISim's scene files; variants made for
// the parity table (name.tol1e-24.xml, .mumps-name.xml) are not assets.
var assetName = regexp.MustCompile(`^[A-Za-z0-9_]+\.xml$`)

// readSceneList returns the status column of the scene tables of the
// SCISim scene list, by system (its "### system" sections) and scene.
func readSceneList(t *testing.T, path string) map[string]map[string]string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := make(map[string]map[string]string)
	var system string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			system = strings.TrimSpace(strings.TrimLeft(line, "#"))
			out[system] = make(map[string]string)
			continue
		}
		cells := strings.Split(line, "|")
		if system == "" || len(cells) < 4 || !strings.HasSuffix(strings.TrimSpace(cells[1]), ".xml") {
			continue
		}
		out[system][strings.TrimSpace(cells[1])] = strings.TrimSpace(cells[2])
	}
	return out
}
