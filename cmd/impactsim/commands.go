package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"impactsim/frame2d"
	"impactsim/impact"
)

// command is one subcommand of impactsim. Commands of a group ("bench
// drum", "tower stable") carry the group's name first. Every command
// parses its flags with newFlags and parse before doing anything else, so
// `impactsim SUB --help` prints the flags it defines and the top-level
// usage is generated from the same definitions (commandFlags): neither can
// drift from the code. TestEveryCommandHelp holds every command to this.
type command struct {
	name    string // "run", "bench drum"
	args    string // positional arguments of the synopsis ("SCENE"; "" if none)
	summary string // what it does, one or a few lines
	// details, if set, adds text after the flags in `SUB --help` (lists
	// of built-ins, file formats).
	details func() string
	run     func(args []string, stdout, stderr io.Writer) error
}

// commandTable lists every subcommand in the order of the usage text. A
// new command is added here and nowhere else.
func commandTable() []command {
	return []command{
		{name: "demo", summary: "the built-in pool break with gr and lcp, side by side (GIF, PNG)", run: cmdDemo},
		{name: "run", args: "SCENE", summary: "SCENE is a SCISim ball2d, rigidbody2d or rigidbody3d XML file, or builtin:NAME ('impactsim scenes')", run: cmdRun},
		{name: "render", args: "DIR", summary: "PNG frames, animated GIF (and MP4 with ffmpeg) of a run directory", run: cmdRender},
		{name: "scenes", summary: "list the built-in scenes", run: cmdScenes},
		{name: "desiderata", summary: "Table 1 of the paper, measured for every operator", run: cmdDesiderata},
		{name: "bench drum", summary: "Table 2 of Smith et al.: balls in a drum, per-step timings", run: cmdBenchDrum},
		{name: "bench pile", summary: "boxes or tori falling into a container, per-step timings", run: cmdBenchPile},
		{name: "bench channel", summary: "channel flow: per-step time, contact updates per second per core, memory per sphere", run: cmdBenchChannel},
		{name: "bench patterns", summary: "vibrated layer: per-step integration, detection, impact and friction times, GR iterations and\nconstraints (Smith et al. Table 3), allocations and memory per sphere", run: cmdBenchPatterns},
		{name: "chain", summary: "three-ball chain post-impact velocities vs v_a (Zhang et al. Fig. 4): CSV + PNG", run: cmdChain},
		{name: "cradle-disturb", summary: "spread of Newton's cradle outcomes vs disturbance size (Fig. 12): CSV + PNG", run: cmdCradleDisturb},
		{name: "tower stable", args: "FILE|builtin:NAME", summary: "brick tower stability LP (Rote & Zwick): contact forces or the first unbalanced brick",
			details: towerDetails, run: cmdTowerStable},
		{name: "tower collapse", args: "FILE|builtin:NAME", summary: "initial collapse QP (--initial) or the position-based time steps of Fig. 7: trajectory, GIF, summary",
			details: towerDetails, run: cmdTowerCollapse},
		{name: "tower builtins", summary: "list the built-in towers", run: cmdTowerBuiltins},
		{name: "academic", summary: "Preclik et al. Table 1: the six-mass body's maximum-dissipation and Coulomb impulses (CSV)", run: cmdAcademic},
		{name: "painleve", summary: "Painlevé rod: impulsive / non-impulsive impact over (θ, μ) against μ*(θ) (CSV + PNG)", run: cmdPainleve},
		{name: "demon", summary: "granular Maxwell's demon (Smith et al. §11.3, Fig. 11): balls on each side of a shaken fence over time\n(CSV, PNG, GIF); --sweep: asymmetry against the shaking strength Γ and the threshold", run: cmdDemon},
		{name: "shock", summary: "shock wave after one shake (Zhang et al. Fig. 8): grains coloured by depth, qce and gr side by side;\nthe time the velocity front reaches each band (CSV, PNG) and the deformed bands (PNG, GIF)", run: cmdShock},
		{name: "patterns", summary: "extended patterns (Smith et al. §11.4 Fig. 12): 60,000 frictional spheres on a vibrating floor,\nheight field, power spectrum, λ and peak count per cycle (CSV, PNG)", run: cmdPatterns},
		{name: "channel", summary: "granular channel flow (Preclik et al. sec. 4.3): Table 2, velocity maps, RDF (CSV + PNG)", run: cmdChannel},
		{name: "bouncemap build", args: "MESH.obj", summary: "the Bounce Map of a closed surface (Wang et al. 2017): tetrahedral mesh, FEM, the lowest\nelastic modes, restitution of every face (and with --sharp of sharp edges and vertex cones)", run: bouncemapBuild},
		{name: "bouncemap show", args: "MAP", summary: "the body coloured by ε (blue 0 → red 1) from four sides (PNG) and a .vtp for ParaView", run: bouncemapShow},
		{name: "bouncemap combiners", summary: "Table 1 of Wang et al. on our shapes: mean |ε_ij − F(ε_i, ε_j)| per EPS combiner", run: bouncemapCombiners},
	}
}

func towerDetails() string {
	return "built-in towers: " + strings.Join(frame2d.Builtins(), ", ") + "\nthe tower file format is in frame2d/doc.go"
}

// helpRequest is returned by parse when the arguments ask for help
// (-h, --help): the caller prints the command's help on stdout, exit 0.
type helpRequest struct{ fs *flag.FlagSet }

func (h helpRequest) Error() string { return h.fs.Name() + ": help requested" }

// dispatch runs the command args name, with its help on --help.
func dispatch(args []string, stdout, stderr io.Writer) error {
	cmds := commandTable()
	name, rest := args[0], args[1:]
	if name == "help" || name == "-h" || name == "--help" {
		if len(rest) == 0 {
			writeUsage(stdout, cmds)
			return nil
		}
		// impactsim help SUB [SUB2] = impactsim SUB [SUB2] --help
		return dispatch(append(slices.Clone(rest), "--help"), stdout, stderr)
	}
	var group []command
	for _, c := range cmds {
		if c.name == name {
			return runCommand(c, rest, stdout, stderr)
		}
		if strings.HasPrefix(c.name, name+" ") {
			group = append(group, c)
		}
	}
	if group == nil {
		return badInput("unknown command %q (try 'impactsim help')", name)
	}
	if len(rest) > 0 {
		if rest[0] == "help" || rest[0] == "-h" || rest[0] == "--help" {
			if len(rest) > 1 {
				return dispatch(append([]string{name, rest[1]}, "--help"), stdout, stderr)
			}
			writeCommands(stdout, group)
			return nil
		}
		for _, c := range group {
			if c.name == name+" "+rest[0] {
				return runCommand(c, rest[1:], stdout, stderr)
			}
		}
	}
	var subs []string
	for _, c := range group {
		subs = append(subs, strings.TrimPrefix(c.name, name+" "))
	}
	if len(rest) == 0 {
		return badInput("%s: expected a subcommand: %s ('impactsim %s --help')", name, strings.Join(subs, ", "), name)
	}
	return badInput("%s: unknown subcommand %q (%s; 'impactsim %s --help')", name, rest[0], strings.Join(subs, ", "), name)
}

// runCommand runs c; a help request prints c's help on stdout.
func runCommand(c command, args []string, stdout, stderr io.Writer) error {
	err := c.run(args, stdout, stderr)
	var h helpRequest
	if errors.As(err, &h) {
		writeCommandHelp(stdout, c, h.fs)
		return nil
	}
	return err
}

// commandFlags returns the flags c defines, by asking c for help (every
// command parses its flags first, so nothing else runs). nil if c does not
// answer --help with its flags (a bug TestEveryCommandHelp catches).
func commandFlags(c command) *flag.FlagSet {
	var h helpRequest
	if errors.As(c.run([]string{"--help"}, io.Discard, io.Discard), &h) {
		return h.fs
	}
	return nil
}

// placeholders name the value of common flags in synopses; other flags
// get a backquoted name from their usage text (as flag.PrintDefaults) or
// one from their type.
var placeholders = map[string]string{
	"out": "DIR", "operator": "NAME", "operators": "LIST", "end": "T", "dt": "DT", "cor": "C", "mu": "M",
	"workers": "W", "steps": "S", "frames": "K", "width": "W", "height": "H", "fps": "F",
	"cpuprofile": "FILE", "memprofile": "FILE", "csv": "FILE", "save-state": "FILE", "resume": "FILE",
	"law": "LAW", "preset": "P", "from": "F", "max-iter": "K", "solver": "SOLVER", "seed": "SEED",
	"mesh": "FILE", "tets": "FILE", "bunny": "FILE", "write-tets": "PREFIX", "modes": "M", "save-at": "LIST",
}

func placeholder(f *flag.Flag) string {
	name, _ := flag.UnquoteUsage(f)
	if name == "" { // a boolean flag
		return ""
	}
	if strings.Contains(f.Usage, "`") {
		return name
	}
	if p, ok := placeholders[f.Name]; ok {
		return p
	}
	switch name {
	case "int", "uint":
		return "N"
	case "float":
		return "X"
	case "string":
		return "S"
	}
	return "V"
}

// synopsis is "impactsim NAME ARGS [--flag P] …" wrapped at 100 columns.
func synopsis(c command, fs *flag.FlagSet) string {
	head := "impactsim " + c.name
	if c.args != "" {
		head += " " + c.args
	}
	var b strings.Builder
	b.WriteString(head)
	col, indent := len(head), strings.Repeat(" ", min(len(head)+1, 24))
	if fs != nil {
		fs.VisitAll(func(f *flag.Flag) {
			item := "[--" + f.Name
			if p := placeholder(f); p != "" {
				item += " " + p
			}
			item += "]"
			if col+1+len(item) > 98 {
				b.WriteString("\n  " + indent)
				col = 2 + len(indent)
			} else {
				b.WriteString(" ")
				col++
			}
			b.WriteString(item)
			col += len(item)
		})
	}
	return b.String()
}

// writeUsage writes the top-level usage: every command's synopsis,
// generated from its flags, and its summary.
func writeUsage(w io.Writer, cmds []command) {
	fmt.Fprint(w, "impactsim — rigid bodies dominated by collisions\n\nusage:\n")
	writeCommands(w, cmds)
	fmt.Fprintf(w, "\noperators: %s\n'impactsim COMMAND --help' (or 'impactsim help COMMAND') explains every flag of COMMAND\n", strings.Join(impact.Names(), ", "))
}

func writeCommands(w io.Writer, cmds []command) {
	for _, c := range cmds {
		fmt.Fprintf(w, "  %s\n", indentLines(synopsis(c, commandFlags(c)), "  "))
		fmt.Fprintf(w, "      %s\n", indentLines(c.summary, "      "))
	}
}

func indentLines(s, indent string) string { return strings.ReplaceAll(s, "\n", "\n"+indent) }

// writeCommandHelp writes `impactsim SUB --help`: the synopsis, the
// summary and every flag with its meaning and default.
func writeCommandHelp(w io.Writer, c command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: %s\n\n%s\n", indentLines(synopsis(c, fs), "       "), c.summary)
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n > 0 {
		fmt.Fprint(w, "\nflags:\n")
	}
	fs.VisitAll(func(f *flag.Flag) {
		_, usage := flag.UnquoteUsage(f)
		item := "--" + f.Name
		if p := placeholder(f); p != "" {
			item += " " + p
		}
		if d := f.DefValue; d != "" && d != "0" && d != "false" && !strings.Contains(usage, "default") {
			usage += fmt.Sprintf(" (default %s)", d)
		}
		if len(item) > 22 {
			item += "\n" + strings.Repeat(" ", 24)
		}
		fmt.Fprintf(w, "  %-22s %s\n", item, indentLines(usage, strings.Repeat(" ", 25)))
	})
	if c.details != nil {
		fmt.Fprintf(w, "\n%s\n", c.details())
	}
}
