module impactsim

go 1.26.8

require (
	github.com/fogleman/gg v1.3.0
	github.com/scigolib/hdf5 v0.14.0
	go.starlark.net v0.0.0-20260908191801-89a6a09411d5
	golang.org/x/image v0.25.0
	gonum.org/v1/gonum v0.17.0
)

require (
	github.com/golang/freetype v0.0.0-20170609003504-e2365dfdc4a0 // indirect
	golang.org/x/sys v0.42.0 // indirect
)
