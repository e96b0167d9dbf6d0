package friction

// ColourGroups returns the colour order of o's last coloured solve: the
// contacts colour by colour (order[start[g]:start[g+1]]) and whether the
// last group is the uncoloured rest.
func ColourGroups(o *BoxedLCP) (order, start []int32, tail bool) {
	return o.colours.order, o.colours.start, o.colours.tail
}

// SetColourGrain sets the fewest contacts of a colour one worker takes.
func SetColourGrain(o *BoxedLCP, grain int) { o.grain = grain }
