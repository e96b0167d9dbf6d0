package script

import (
	"fmt"
	"math"

	"go.starlark.net/starlark"
)

// array is a one-dimensional float array over Go storage, as SCISim's
// numpy views of its state and coefficients: indexing, assignment (checked
// by ok), len, iteration and the attribute shape.
type array struct {
	name string
	data func() []float64 // the current storage (it may be reallocated between calls)
	ok   func(x float64) bool
	want string
}

var (
	_ starlark.HasSetIndex = (*array)(nil)
	_ starlark.Iterable    = (*array)(nil)
	_ starlark.HasAttrs    = (*array)(nil)
)

func (a *array) String() string        { return fmt.Sprintf("%s%v", a.name, a.data()) }
func (a *array) Type() string          { return "array" }
func (a *array) Freeze()               {}
func (a *array) Truth() starlark.Bool  { return len(a.data()) > 0 }
func (a *array) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable: array") }
func (a *array) Len() int              { return len(a.data()) }
func (a *array) Index(i int) starlark.Value {
	return starlark.Float(a.data()[i])
}

func (a *array) SetIndex(i int, v starlark.Value) error {
	x, ok := starlark.AsFloat(v)
	if !ok {
		return fmt.Errorf("%s[%d] = %s: expected a number", a.name, i, v.Type())
	}
	if !a.ok(x) {
		return fmt.Errorf("%s[%d] = %v: expected %s", a.name, i, x, a.want)
	}
	a.data()[i] = x
	return nil
}

func (a *array) Iterate() starlark.Iterator { return &arrayIter{a: a} }

func (a *array) Attr(name string) (starlark.Value, error) {
	if name == "shape" {
		return starlark.Tuple{starlark.MakeInt(a.Len())}, nil
	}
	return nil, nil
}

func (a *array) AttrNames() []string { return []string{"shape"} }

type arrayIter struct {
	a *array
	i int
}

func (it *arrayIter) Next(p *starlark.Value) bool {
	if it.i >= it.a.Len() {
		return false
	}
	*p = it.a.Index(it.i)
	it.i++
	return true
}

func (it *arrayIter) Done() {}

func finiteNum(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// args reads the call's arguments as numbers (ints are converted), after
// checking their count; name is the function's.
func numbers(name string, args starlark.Tuple, n int, what string) ([]float64, error) {
	if len(args) != n {
		return nil, fmt.Errorf("%s: %d arguments, expected %d (%s)", name, len(args), n, what)
	}
	out := make([]float64, n)
	for i, a := range args {
		x, ok := starlark.AsFloat(a)
		if !ok || !finiteNum(x) {
			return nil, fmt.Errorf("%s: argument %d is %s, expected a finite number (%s)", name, i+1, a.String(), what)
		}
		out[i] = x
	}
	return out, nil
}

// index reads argument k as an index in [0, n) of what.
func index(name string, args starlark.Tuple, k, n int, what string) (int, error) {
	i, err := starlark.AsInt32(args[k])
	if err != nil {
		return 0, fmt.Errorf("%s: argument %d is %s, expected the index of a %s", name, k+1, args[k].String(), what)
	}
	if i < 0 || i >= n {
		return 0, fmt.Errorf("%s: %s index %d out of range [0, %d)", name, what, i, n)
	}
	return i, nil
}

// indexed reads the arguments of a function of an index in [0, count) of
// kind followed by n numbers (what names them all).
func indexed(name string, args []starlark.Value, count, n int, kind, what string) (int, []float64, error) {
	if len(args) != n+1 {
		return 0, nil, fmt.Errorf("%s: %d arguments, expected %d (%s)", name, len(args), n+1, what)
	}
	i, err := index(name, args, 0, count, kind)
	if err != nil {
		return 0, nil, err
	}
	x, err := numbers(name, args[1:], n, what)
	return i, x, err
}
