// Command impactsim simulates rigid bodies whose motion is dominated by
// collisions, with the multi-impact operators of Smith et al. 2012 and
// their baselines. Run `impactsim help` for the subcommands.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// usageError marks bad input (scene, flags, options): exit status 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func badInput(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

const usage = `impactsim — rigid bodies dominated by collisions

usage:
  impactsim demo [--out DIR]
      the built-in pool break with gr and lcp, side by side (GIF, PNG)
  impactsim run SCENE [--end T] [--operator NAME] [--cor C] [--mu M]
                      [--solver auto|dense|sparse] [--out DIR] [--frames N] [--vtk]
                      [--max-iter K] [--quiet] [--strict]
      SCENE is a SCISim ball2d, rigidbody2d or rigidbody3d XML file, or builtin:NAME
                      [--law nbgs-maxdiss|nbgs-coulomb] [--epsilon E] [--tol X] [--domains D] [--relax W]
      SCENE is a SCISim ball2d or rigidbody3d XML file, or builtin:NAME
      (see 'impactsim scenes')
  impactsim render DIR [--out DIR] [--width W] [--height H] [--stride K]
                      [--max-frames N] [--fps F] [--no-mp4] [--no-gif] [--no-png]
  impactsim desiderata
      Table 1 of the paper, measured for every operator
  impactsim bench drum [--n N] [--mode drop|gas] [--steps S] [--operator NAME]
  impactsim bench pile [--kind box|mesh] [--n N] [--steps S] [--from F] [--operator NAME] [--solver S] [--cpuprofile FILE]
  impactsim scenes
      list the built-in scenes
  impactsim chain [--vc V] [--va LO:HI:STEP] [--operators qce,gr,lcp,hertz] [--out DIR]
      three-ball chain post-impact velocities vs v_a (Zhang et al. Fig. 4): CSV + PNG
  impactsim cradle-disturb [--eps LO:HI] [--per-decade K] [--n N] [--samples S]
                      [--operators qce,gr] [--seed S] [--out DIR]
      spread of Newton's cradle outcomes vs disturbance size (Fig. 12): CSV + PNG
  impactsim tower stable|collapse FILE|builtin:NAME [--initial] [--steps N] [--out DIR]
      brick towers as bar-and-joint frameworks (Rote & Zwick): stability LP, collapse
  impactsim academic [--out DIR]
      Preclik et al. Table 1: the six-mass body's maximum-dissipation and Coulomb impulses (CSV)
  impactsim painleve [--theta N] [--mu LO:HI:N] [--out DIR]
      Painlevé rod: impulsive / non-impulsive impact over (θ, μ) against μ*(θ) (CSV + PNG)
  impactsim channel [--preset paper|narrow|tiny] [--end T] [--law maxdiss|coulomb|both]
                    [--sweeps N] [--tol X] [--epsilon E] [--domains D] [--relax W] [--dt H]
                    [--from T] [--workers W] [--vtk] [--save-state FILE] [--resume FILE] [--strict] [--out DIR]
      granular channel flow (Preclik et al. sec. 4.3): Table 2, velocity maps, RDF (CSV + PNG)
  impactsim bench channel [--preset P] [--steps S] [--warm K] [--workers W] [--resume FILE] [--law L]
      per-step time, contact updates per second per core, memory per sphere

  impactsim bouncemap build MESH.obj [--modes M] [--out MAP] | show MAP | combiners
      Bounce Maps (Wang et al. 2017): restitution of a body over its surface
      from its vibration modes ('impactsim bouncemap help')

operators: gr, grr, lcp, gauss_seidel, jacobi, qce, qce_lcp
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "demo":
		err = cmdDemo(args[1:], stdout, stderr)
	case "run":
		err = cmdRun(args[1:], stdout, stderr)
	case "render":
		err = cmdRender(args[1:], stdout, stderr)
	case "desiderata":
		err = cmdDesiderata(args[1:], stdout, stderr)
	case "bench":
		err = cmdBench(args[1:], stdout, stderr)
	case "scenes":
		err = cmdScenes(args[1:], stdout, stderr)
	case "chain":
		err = cmdChain(args[1:], stdout, stderr)
	case "cradle-disturb":
		err = cmdCradleDisturb(args[1:], stdout, stderr)
	case "tower":
		err = cmdTower(args[1:], stdout, stderr)
	case "bouncemap":
		err = cmdBouncemap(args[1:], stdout, stderr)
	case "channel":
		err = cmdChannel(args[1:], stdout, stderr)
	case "academic":
		err = cmdAcademic(args[1:], stdout, stderr)
	case "painleve":
		err = cmdPainleve(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		err = badInput("unknown command %q (try 'impactsim help')", args[0])
	}
	if err == nil {
		return 0
	}
	fmt.Fprintf(stderr, "impactsim: %v\n", err)
	var ue usageError
	if errors.As(err, &ue) {
		return 2
	}
	return 1
}
