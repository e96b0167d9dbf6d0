package geom2d

// Plane is a static line through P with unit normal N pointing to its free
// side.
type Plane struct {
	P, N [2]float64
}

// T returns the plane's unit tangent (−N_y, N_x).
func (pl Plane) T() [2]float64 { return [2]float64{-pl.N[1], pl.N[0]} }

// Dist returns the signed distance N·(x − P).
func (pl *Plane) Dist(x [2]float64) float64 {
	return pl.N[0]*(x[0]-pl.P[0]) + pl.N[1]*(x[1]-pl.P[1])
}

// Behind reports N·(x − P) < 0 (SCISim's distanceLessThanZero).
func (pl *Plane) Behind(x [2]float64) bool { return pl.Dist(x) < 0 }
