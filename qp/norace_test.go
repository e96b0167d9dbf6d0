//go:build !race

package qp_test

// raceDetector is true under go test -race (see race_test.go).
const raceDetector = false
