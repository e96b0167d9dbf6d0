package rigid3d

import (
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// Quat is a unit quaternion (W, X, Y, Z) = (cos θ/2, sin θ/2 · axis).
type Quat struct{ W, X, Y, Z float64 }

// Identity is the identity rotation.
var Identity = Quat{W: 1}

// Mul returns the Hamilton product q ⊗ p (apply p first, then q).
func (q Quat) Mul(p Quat) Quat {
	return Quat{
		W: q.W*p.W - q.X*p.X - q.Y*p.Y - q.Z*p.Z,
		X: q.W*p.X + q.X*p.W + q.Y*p.Z - q.Z*p.Y,
		Y: q.W*p.Y - q.X*p.Z + q.Y*p.W + q.Z*p.X,
		Z: q.W*p.Z + q.X*p.Y - q.Y*p.X + q.Z*p.W,
	}
}

// Normalized returns q/|q| with the sign chosen so that W ≥ 0 is not
// enforced (q and −q are the same rotation; keeping the sign keeps the
// trajectory of q continuous).
func (q Quat) Normalized() Quat {
	n := math.Sqrt(q.W*q.W + q.X*q.X + q.Y*q.Y + q.Z*q.Z)
	return Quat{q.W / n, q.X / n, q.Y / n, q.Z / n}
}

// FromRotationVector returns the rotation by |w| about w/|w| (SCISim's R
// attribute).
func FromRotationVector(w r3.Vec) Quat {
	th := r3.Norm(w)
	if th == 0 {
		return Identity
	}
	s := math.Sin(th/2) / th
	return Quat{math.Cos(th / 2), s * w.X, s * w.Y, s * w.Z}
}

// AxisAngle returns the rotation by angle th about the unit axis a.
func AxisAngle(a r3.Vec, th float64) Quat {
	s := math.Sin(th / 2)
	return Quat{math.Cos(th / 2), s * a.X, s * a.Y, s * a.Z}
}

// Mat3 is a 3×3 matrix, row-major.
type Mat3 [3][3]float64

// Matrix returns the rotation matrix of the unit quaternion q.
func (q Quat) Matrix() Mat3 {
	w, x, y, z := q.W, q.X, q.Y, q.Z
	return Mat3{
		{1 - 2*(y*y+z*z), 2 * (x*y - w*z), 2 * (x*z + w*y)},
		{2 * (x*y + w*z), 1 - 2*(x*x+z*z), 2 * (y*z - w*x)},
		{2 * (x*z - w*y), 2 * (y*z + w*x), 1 - 2*(x*x+y*y)},
	}
}

// Rotate returns R(q) v.
func (q Quat) Rotate(v r3.Vec) r3.Vec { m := q.Matrix(); return m.MulVec(v) }

// MulVec returns A v.
func (a *Mat3) MulVec(v r3.Vec) r3.Vec {
	return r3.Vec{
		X: a[0][0]*v.X + a[0][1]*v.Y + a[0][2]*v.Z,
		Y: a[1][0]*v.X + a[1][1]*v.Y + a[1][2]*v.Z,
		Z: a[2][0]*v.X + a[2][1]*v.Y + a[2][2]*v.Z,
	}
}

// MulTVec returns Aᵀ v.
func (a *Mat3) MulTVec(v r3.Vec) r3.Vec {
	return r3.Vec{
		X: a[0][0]*v.X + a[1][0]*v.Y + a[2][0]*v.Z,
		Y: a[0][1]*v.X + a[1][1]*v.Y + a[2][1]*v.Z,
		Z: a[0][2]*v.X + a[1][2]*v.Y + a[2][2]*v.Z,
	}
}

// Col returns column j of A (for a rotation: body axis j in the world).
func (a *Mat3) Col(j int) r3.Vec { return r3.Vec{X: a[0][j], Y: a[1][j], Z: a[2][j]} }

// congruence returns R diag(d) Rᵀ.
func congruence(r *Mat3, d r3.Vec) Mat3 {
	var m Mat3
	dd := [3]float64{d.X, d.Y, d.Z}
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			var s float64
			for k := 0; k < 3; k++ {
				s += r[i][k] * dd[k] * r[j][k]
			}
			m[i][j] = s
		}
	}
	return m
}

func comp(v r3.Vec, i int) float64 {
	switch i {
	case 0:
		return v.X
	case 1:
		return v.Y
	}
	return v.Z
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func finiteVec(v r3.Vec) bool { return finite(v.X) && finite(v.Y) && finite(v.Z) }
