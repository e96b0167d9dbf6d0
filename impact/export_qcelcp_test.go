package impact

// SetQCELCPGuess makes o's LCP start from QCE's guess (on, the default)
// or from zero.
func SetQCELCPGuess(o *QCELCP, on bool) { o.noGuess = !on }
