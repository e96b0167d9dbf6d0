//go:build race

package qp_test

// raceDetector is true under go test -race: the largest problems of the
// agreement tests, 10–50× slower there, are left out (they hold no
// concurrency the smaller ones do not; the concurrent factorization is
// checked by TestSparseCholesky and the 3·10³ interior-point packings).
const raceDetector = true
