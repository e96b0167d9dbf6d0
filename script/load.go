package script

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	starmath "go.starlark.net/lib/math"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"

	"impactsim/bounded"
	"impactsim/mech"
	"impactsim/sim"
)

// callbacks are the functions SCISim calls, in the order of a step.
var callbacks = []string{"startOfSim", "startOfStep", "restitutionCoefficient", "frictionCoefficient", "endOfStep", "endOfSim"}

// Program is a loaded script: its globals after execution and the
// callbacks it defines.
type Program struct {
	Name string // the file's base name, NAME.py
	path string
	th   *starlark.Thread
	fn   map[string]starlark.Callable
	// the call's context
	st    *sim.Stepper
	prob  *mech.Problem // during restitutionCoefficient, frictionCoefficient
	phase string        // the callback running
}

// binding is a system's module: its name and functions, which read and
// change the system through the program's context.
type binding struct {
	module string
	funcs  map[string]func(pr *Program, args []starlark.Value) (starlark.Value, error)
}

// names returns the module's function names, sorted.
func (b *binding) names() []string {
	var n []string
	for k := range b.funcs {
		n = append(n, k)
	}
	slices.Sort(n)
	return n
}

var (
	importRe = regexp.MustCompile(`^(\s*)import\s+(.+?)\s*$`)
	fromRe   = regexp.MustCompile(`^\s*from\s+\S+\s+import\b`)
	assertRe = regexp.MustCompile(`^(\s*)assert\s+(.+?)\s*$`)
	printRe  = regexp.MustCompile(`^(\s*)print\s+([^(\s].*?)\s*$`)
	raiseRe  = regexp.MustCompile(`^(\s*)raise\s+(.+?)\s*$`)
)

// rewrite turns the Python lines Starlark does not have into Starlark, line
// for line (package documentation, "Python accepted").
func rewrite(src, name string, allowed []string) (string, error) {
	lines := strings.Split(src, "\n")
	for i, l := range lines {
		code, comment := l, ""
		if k := strings.Index(l, "#"); k >= 0 && !strings.ContainsAny(l[:k], `"'`) {
			code, comment = l[:k], l[k:]
		}
		switch {
		case fromRe.MatchString(code):
			return "", fmt.Errorf("%s:%d: \"from … import\" is not supported: the modules %s are predeclared", name, i+1, strings.Join(allowed, ", "))
		case importRe.MatchString(code):
			m := importRe.FindStringSubmatch(code)
			for _, mod := range strings.Split(m[2], ",") {
				if mod = strings.TrimSpace(mod); !slices.Contains(allowed, mod) {
					return "", fmt.Errorf("%s:%d: import %s: expected one of the modules %s", name, i+1, mod, strings.Join(allowed, ", "))
				}
			}
			code = ""
		case assertRe.MatchString(code):
			m := assertRe.FindStringSubmatch(code)
			code = m[1] + "assert_(" + m[2] + ")"
		case printRe.MatchString(code):
			m := printRe.FindStringSubmatch(code)
			code = m[1] + "print(" + m[2] + ")"
		case raiseRe.MatchString(code):
			m := raiseRe.FindStringSubmatch(code)
			code = m[1] + "fail(" + m[2] + ")"
		}
		lines[i] = code + comment
	}
	return strings.Join(lines, "\n"), nil
}

// fileOptions is the Starlark dialect scripts are compiled with.
var fileOptions = &syntax.FileOptions{Set: true, While: true, TopLevelControl: true, GlobalReassign: true, Recursion: true}

// load reads the script at path for the module b, checks its uses of the
// predeclared modules and runs its top level.
func load(path string, b *binding) (*Program, error) {
	name := filepath.Base(path)
	data, err := bounded.ReadTextFile(path, bounded.Small, "scene script")
	if err != nil {
		return nil, fmt.Errorf("script %s: %w", name, err)
	}
	pre := predeclared(b)
	var allowed []string
	for k, v := range pre {
		if _, ok := v.(*starlarkstruct.Module); ok {
			allowed = append(allowed, k)
		}
	}
	slices.Sort(allowed)
	src, err := rewrite(string(data), name, allowed)
	if err != nil {
		return nil, err
	}
	f, err := fileOptions.Parse(name, src, 0)
	if err != nil {
		return nil, oneLine(err)
	}
	if err := checkModules(f, name, pre); err != nil {
		return nil, err
	}
	pr := &Program{Name: name, path: path, fn: map[string]starlark.Callable{}}
	pr.th = &starlark.Thread{Name: name, Print: func(_ *starlark.Thread, msg string) { fmt.Fprintf(os.Stderr, "%s: %s\n", name, msg) }}
	pre = predeclaredFor(pr, b)
	globals, err := starlark.ExecFileOptions(fileOptions, pr.th, name, src, pre)
	if err != nil {
		return nil, pr.evalError(err, "top level")
	}
	for _, cb := range callbacks {
		if v, ok := globals[cb]; ok {
			c, ok := v.(starlark.Callable)
			if !ok {
				return nil, fmt.Errorf("%s: %s is a %s, not a function", name, cb, v.Type())
			}
			pr.fn[cb] = c
		}
	}
	if _, ok := pr.fn["endOfSim"]; ok {
		return nil, fmt.Errorf("%s: endOfSim is not supported (impactsim calls startOfSim, startOfStep, restitutionCoefficient, frictionCoefficient and endOfStep)", name)
	}
	return pr, nil
}

// checkModules refuses a module member the script uses that is not
// provided, with its line.
func checkModules(f *syntax.File, name string, pre starlark.StringDict) error {
	var err error
	syntax.Walk(f, func(n syntax.Node) bool {
		d, ok := n.(*syntax.DotExpr)
		if !ok || err != nil {
			return err == nil
		}
		id, ok := d.X.(*syntax.Ident)
		if !ok {
			return true
		}
		m, ok := pre[id.Name].(*starlarkstruct.Module)
		if !ok {
			return true
		}
		if _, has := m.Members[d.Name.Name]; !has {
			var names []string
			for k := range m.Members {
				names = append(names, k)
			}
			slices.Sort(names)
			pos := d.Name.NamePos
			err = fmt.Errorf("%s:%d: %s.%s is not provided by impactsim (%s has: %s)", name, pos.Line, id.Name, d.Name.Name, id.Name, strings.Join(names, ", "))
		}
		return true
	})
	return err
}

// predeclared is the environment's shape for checking (functions not
// bound to a program).
func predeclared(b *binding) starlark.StringDict { return predeclaredFor(nil, b) }

// predeclaredFor returns the script's predeclared names: the system's
// module bound to pr, math, numpy, sys, assert_ and the exception names.
func predeclaredFor(pr *Program, b *binding) starlark.StringDict {
	members := starlark.StringDict{}
	for k, f := range b.funcs {
		members[k] = starlark.NewBuiltin(b.module+"."+k, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if len(kw) > 0 {
				return nil, fmt.Errorf("%s.%s takes no keyword arguments", b.module, k)
			}
			return f(pr, args)
		})
	}
	exc := func(n string) *starlark.Builtin {
		return starlark.NewBuiltin(n, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			parts := []string{}
			for _, a := range args {
				if s, ok := starlark.AsString(a); ok {
					parts = append(parts, s)
				} else {
					parts = append(parts, a.String())
				}
			}
			return starlark.String(n + ": " + strings.Join(parts, " ")), nil
		})
	}
	return starlark.StringDict{
		b.module: &starlarkstruct.Module{Name: b.module, Members: members},
		"math":   starmath.Module,
		"numpy": &starlarkstruct.Module{Name: "numpy", Members: starlark.StringDict{
			"pi": starmath.Module.Members["pi"], "sin": starmath.Module.Members["sin"], "cos": starmath.Module.Members["cos"], "sqrt": starmath.Module.Members["sqrt"],
			"arange": starlark.NewBuiltin("numpy.arange", arange),
			"uint32": starlark.String("uint32"), "int32": starlark.String("int32"), "int64": starlark.String("int64"), "float64": starlark.String("float64"),
		}},
		"sys": &starlarkstruct.Module{Name: "sys", Members: starlark.StringDict{
			"exit": starlark.NewBuiltin("sys.exit", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
				return nil, fmt.Errorf("the script called sys.exit%s", args.String())
			}),
		}},
		"assert_": starlark.NewBuiltin("assert", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			if len(args) == 0 || len(args) > 2 {
				return nil, fmt.Errorf("assert takes a condition and an optional message")
			}
			if args[0].Truth() {
				return starlark.None, nil
			}
			if len(args) == 2 {
				return nil, fmt.Errorf("assertion failed: %s", args[1])
			}
			return nil, errors.New("assertion failed")
		}),
		"ValueError": exc("ValueError"), "RuntimeError": exc("RuntimeError"), "Exception": exc("Exception"),
	}
}

// call runs the callback name if the script defines it.
func (pr *Program) call(name string) error {
	f, ok := pr.fn[name]
	if !ok {
		return nil
	}
	pr.phase = name
	if _, err := starlark.Call(pr.th, f, nil, nil); err != nil {
		return pr.evalError(err, name)
	}
	return nil
}

// evalError makes err one line naming the script's line where it
// happened (the innermost frame in the script) and the callback.
func (pr *Program) evalError(err error, where string) error {
	var ee *starlark.EvalError
	if !errors.As(err, &ee) {
		return oneLine(fmt.Errorf("%s: %w (in %s)", pr.Name, err, where))
	}
	line := 0
	for _, fr := range ee.CallStack {
		if fr.Pos.Filename() == pr.Name {
			line = int(fr.Pos.Line)
		}
	}
	msg := strings.TrimPrefix(ee.Msg, "fail: ")
	if line == 0 {
		return oneLine(fmt.Errorf("%s: %s (in %s)", pr.Name, msg, where))
	}
	return oneLine(fmt.Errorf("%s:%d: %s (in %s)", pr.Name, line, msg, where))
}

// oneLine replaces newlines in err's message.
func oneLine(err error) error {
	if s := err.Error(); strings.Contains(s, "\n") {
		return errors.New(strings.ReplaceAll(strings.TrimSpace(s), "\n", "; "))
	}
	return err
}

// arange is numpy.arange over integers: arange(stop), arange(start, stop[,
// step]) as a list; the keyword dtype (one of numpy's integer types) is
// accepted.
func arange(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	for _, p := range kw {
		if k, _ := starlark.AsString(p[0]); k != "dtype" || (p[1] != starlark.String("uint32") && p[1] != starlark.String("int32") && p[1] != starlark.String("int64")) {
			return nil, fmt.Errorf("numpy.arange: keyword %s=%s, expected dtype=numpy.uint32, int32 or int64", p[0], p[1])
		}
	}
	var r [3]int
	r[2] = 1
	switch len(args) {
	case 1:
		if err := starlark.AsInt(args[0], &r[1]); err != nil {
			return nil, fmt.Errorf("numpy.arange: %w", err)
		}
	case 2, 3:
		for i, a := range args {
			if err := starlark.AsInt(a, &r[i]); err != nil {
				return nil, fmt.Errorf("numpy.arange: argument %d: %w", i+1, err)
			}
		}
	default:
		return nil, fmt.Errorf("numpy.arange: %d arguments, expected stop or start, stop[, step]", len(args))
	}
	if r[2] == 0 {
		return nil, errors.New("numpy.arange: step 0")
	}
	const limit = 1 << 24
	var out []starlark.Value
	for i := r[0]; (r[2] > 0 && i < r[1]) || (r[2] < 0 && i > r[1]); i += r[2] {
		if len(out) == limit {
			return nil, fmt.Errorf("numpy.arange: more than %d entries", limit)
		}
		out = append(out, starlark.MakeInt(i))
	}
	return starlark.NewList(out), nil
}
