package qp

import (
	"math"
	"sync"
)

// ndLeaf is the part size below which nested dissection stops splitting.
const ndLeaf = 48

// parallelRows is the smallest side of the top-level separator that numeric
// factors on a goroutine of its own.
const parallelRows = 2048

// sparseChol is a sparse Cholesky factorization L Lᵀ = P (A_FF + δ D_FF) Pᵀ
// of a principal submatrix of a symmetric matrix stored by rows, with
// D = diag(A) and a fill-reducing permutation P from nested dissection.
//
// The ordering splits the graph of A_FF recursively at the middle level of a
// breadth-first level structure rooted at a pseudo-peripheral node
// (George's automatic nested dissection; the separator is trimmed to the
// nodes that touch the far side), numbering both halves before the
// separator. Contact graphs of 2D piles are close to planar, where this
// keeps the fill near O(m log m). The numeric factorization is the
// up-looking row-by-row algorithm: row k of L is a sparse triangular solve
// whose pattern is the reach of row k of the matrix in the elimination tree.
//
// A pivot that rounding leaves below δ·A_kk (A_FF is singular when the face
// holds dependent contacts) is replaced by δ·A_kk, so the factor is that of
// a matrix within δ of A_FF on the range that matters; the callers use it
// as a preconditioner or inside iterative refinement, never as the answer.
type sparseChol struct {
	n            int
	perm, iperm  []int     // new → local, local → new
	cp, ci       []int     // upper triangle of the permuted matrix, by columns
	cx, dd       []float64 // values of C, and its diagonal (local order of C)
	parent       []int     // elimination tree
	lp, li       []int     // L by columns, diagonal first
	lx           []float64
	x            []float64
	stack, cnt   []int
	mark         []int
	label, level []int32
	queue, tmp   []int
	stack2       []int // the reach stack of the second concurrent half
	// split0 and split1 bound the two sides of the top-level separator
	// (rows [0, split0) and [split0, split1)); 0, 0 when there is none.
	split0, split1 int
	depth          int // of the nested dissection recursion
	per, nodes     []int
	nextID         int32
	// Shifted counts pivots that had to be raised to δ·A_kk.
	Shifted int
}

// analyze prepares the factorization of A restricted to the local
// variables sub (local i is variable sub[i] of A; loc maps A's variables to
// local indices, −1 outside sub), A given by rows as (ptr, col, val) with
// every row holding its diagonal: ordering, the pattern and values of the
// permuted upper triangle, the elimination tree and the pattern of L.
func (c *sparseChol) analyze(ptr, col []int, val []float64, sub []int, loc []int32) {
	n := len(sub)
	c.n = n
	c.order(ptr, col, sub, loc)
	c.iperm = resize(c.iperm, n)
	for k, i := range c.perm {
		c.iperm[i] = k
	}
	// Upper triangle of C = P A_FF Pᵀ by columns.
	c.cp = resize(c.cp, n+1)
	for k := range c.cp {
		c.cp[k] = 0
	}
	for k, i := range c.perm {
		a := sub[i]
		for q := ptr[a]; q < ptr[a+1]; q++ {
			if j := loc[col[q]]; j >= 0 && c.iperm[j] <= k {
				c.cp[k+1]++
			}
		}
	}
	for k := 0; k < n; k++ {
		c.cp[k+1] += c.cp[k]
	}
	nnz := c.cp[n]
	c.ci = resize(c.ci, nnz)
	c.cx = resize(c.cx, nnz)
	c.dd = resize(c.dd, n)
	c.x = resize(c.x, n)
	for k, i := range c.perm {
		a := sub[i]
		p := c.cp[k]
		for q := ptr[a]; q < ptr[a+1]; q++ {
			if j := loc[col[q]]; j >= 0 && c.iperm[j] <= k {
				c.ci[p], c.cx[p] = c.iperm[j], val[q]
				if c.iperm[j] == k {
					c.dd[k] = val[q]
				}
				p++
			}
		}
	}
	c.etree()
	// Column counts of L: the reach of row k adds one entry to each column
	// on it.
	c.cnt = resize(c.cnt, n)
	c.stack = resize(c.stack, n)
	c.mark = resize(c.mark, n)
	for k := 0; k < n; k++ {
		c.cnt[k] = 1
		c.mark[k] = -1
	}
	for k := 0; k < n; k++ {
		for _, i := range c.stack[c.reach(k, c.stack):] {
			c.cnt[i]++
		}
	}
	c.lp = resize(c.lp, n+1)
	c.lp[0] = 0
	for k := 0; k < n; k++ {
		c.lp[k+1] = c.lp[k] + c.cnt[k]
	}
	c.li = resize(c.li, c.lp[n])
	c.lx = resize(c.lx, c.lp[n])
}

// numeric factors P (A_FF + diag(add) + δ D_FF) Pᵀ on the pattern from
// analyze; add (local order) may be nil. A pivot below δ·A_kk (or below the
// smallest normal number when A_kk = 0) is raised to it and counted in
// Shifted.
func (c *sparseChol) numeric(add []float64, delta float64) {
	n := c.n
	copy(c.cnt, c.lp[:n]) // next free slot per column
	x := c.x
	for k := range x {
		x[k] = 0
	}
	// The two sides of the top-level separator share no entry: their rows
	// touch disjoint columns of L, entries of x and marks, so they are
	// factored at the same time (same arithmetic, so the same bits), and
	// the separator's rows after them.
	a, b := c.split0, c.split1
	if a >= parallelRows && b-a >= parallelRows {
		c.stack2 = resize(c.stack2, n)
		var wg sync.WaitGroup
		var shiftedA int
		wg.Add(1)
		go func() {
			defer wg.Done()
			shiftedA = c.rows(0, a, c.stack2, add, delta)
		}()
		shiftedB := c.rows(a, b, c.stack, add, delta)
		wg.Wait()
		c.Shifted = shiftedA + shiftedB + c.rows(b, n, c.stack, add, delta)
		return
	}
	c.Shifted = c.rows(0, n, c.stack, add, delta)
}

// rows computes rows [lo, hi) of L with the given reach stack and returns
// the number of floored pivots.
func (c *sparseChol) rows(lo, hi int, stack []int, add []float64, delta float64) int {
	next, x := c.cnt, c.x
	shifted := 0
	for k := lo; k < hi; k++ {
		top := c.reach(k, stack)
		for p := c.cp[k]; p < c.cp[k+1]; p++ {
			x[c.ci[p]] = c.cx[p]
		}
		d := x[k] + delta*c.dd[k]
		if add != nil {
			d += add[c.perm[k]]
		}
		x[k] = 0
		for _, i := range stack[top:] {
			lki := x[i] / c.lx[c.lp[i]]
			x[i] = 0
			for p := c.lp[i] + 1; p < next[i]; p++ {
				x[c.li[p]] -= c.lx[p] * lki
			}
			d -= lki * lki
			c.li[next[i]], c.lx[next[i]] = k, lki
			next[i]++
		}
		floor := delta * c.dd[k]
		if !(floor > 0) {
			floor = 0x1p-1022
		}
		if !(d >= floor) {
			d = floor
			shifted++
		}
		c.li[next[k]], c.lx[next[k]] = k, math.Sqrt(d)
		next[k]++
	}
	return shifted
}

// etree computes the elimination tree of the upper triangle (cp, ci).
func (c *sparseChol) etree() {
	n := c.n
	c.parent = resize(c.parent, n)
	anc := resize(c.cnt, n)
	for k := 0; k < n; k++ {
		c.parent[k], anc[k] = -1, -1
		for p := c.cp[k]; p < c.cp[k+1]; p++ {
			for i := c.ci[p]; i != -1 && i < k; {
				inext := anc[i]
				anc[i] = k
				if inext == -1 {
					c.parent[i] = k
				}
				i = inext
			}
		}
	}
	c.cnt = anc
}

// reach returns top such that stack[top:] is the pattern of row k of L
// (without the diagonal) in topological order.
func (c *sparseChol) reach(k int, stack []int) int {
	n := c.n
	top := n
	c.mark[k] = k
	for p := c.cp[k]; p < c.cp[k+1]; p++ {
		i := c.ci[p]
		if i >= k {
			continue
		}
		l := 0
		for ; c.mark[i] != k; i = c.parent[i] {
			stack[l] = i
			l++
			c.mark[i] = k
		}
		for l > 0 {
			top--
			l--
			stack[top] = stack[l]
		}
	}
	return top
}

// solve overwrites x (local order) with (P Lᵀ L P)⁻¹-solution of the
// factored system.
func (c *sparseChol) solve(x, w []float64) {
	n := c.n
	for k, i := range c.perm {
		w[k] = x[i]
	}
	for j := 0; j < n; j++ {
		w[j] /= c.lx[c.lp[j]]
		wj := w[j]
		for p := c.lp[j] + 1; p < c.lp[j+1]; p++ {
			w[c.li[p]] -= c.lx[p] * wj
		}
	}
	for j := n - 1; j >= 0; j-- {
		s := w[j]
		for p := c.lp[j] + 1; p < c.lp[j+1]; p++ {
			s -= c.lx[p] * w[c.li[p]]
		}
		w[j] = s / c.lx[c.lp[j]]
	}
	for k, i := range c.perm {
		x[i] = w[k]
	}
}

// order sets c.perm to a nested-dissection order of the local graph.
func (c *sparseChol) order(ptr, col []int, sub []int, loc []int32) {
	n := len(sub)
	c.perm = resize(c.perm, n)
	c.label = resize(c.label, n)
	c.level = resize(c.level, n)
	c.queue = resize(c.queue, n)
	c.tmp = resize(c.tmp, n)
	c.per = resize(c.per, n+1)
	nodes := resize(c.nodes, n)
	c.nodes = nodes
	for i := range nodes {
		nodes[i] = i
		c.label[i] = -1
	}
	c.nextID = 0
	c.split0, c.split1, c.depth = 0, 0, 0
	// nd numbers the nodes of each part in place: the part's slice of
	// nodes ends up holding its new order, so nodes becomes perm.
	c.nd(ptr, col, sub, loc, nodes)
	copy(c.perm, nodes)
}

// bfs runs a breadth-first search from root over the nodes labelled id
// (their levels must be −1) and returns the last node reached, the number
// of levels and the number of nodes reached (in c.queue).
func (c *sparseChol) bfs(ptr, col []int, sub []int, loc []int32, root int, id int32) (far, levels, cnt int) {
	c.queue[0] = root
	c.level[root] = 0
	cnt = 1
	for h := 0; h < cnt; h++ {
		v := c.queue[h]
		lv := c.level[v]
		a := sub[v]
		for q := ptr[a]; q < ptr[a+1]; q++ {
			u := loc[col[q]]
			if u < 0 || c.label[u] != id || c.level[u] >= 0 {
				continue
			}
			c.level[u] = lv + 1
			c.queue[cnt] = int(u)
			cnt++
		}
	}
	far = c.queue[cnt-1]
	return far, int(c.level[far]) + 1, cnt
}

// partition reorders nodes stably by class (0, 1, 2) in place and returns
// the sizes of classes 0 and 1.
func (c *sparseChol) partition(nodes []int, class func(v int) int) (n0, n1 int) {
	tmp := c.tmp[:0]
	k := 0
	for _, v := range nodes {
		if class(v) == 0 {
			nodes[k] = v
			k++
		} else {
			tmp = append(tmp, v)
		}
	}
	n0 = k
	for _, v := range tmp {
		if class(v) == 1 {
			nodes[k] = v
			k++
		}
	}
	n1 = k - n0
	for _, v := range tmp {
		if class(v) == 2 {
			nodes[k] = v
			k++
		}
	}
	return n0, n1
}

// nd orders nodes in place by nested dissection: the two sides of a
// level-structure separator recursively, then the separator.
func (c *sparseChol) nd(ptr, col []int, sub []int, loc []int32, nodes []int) {
	if len(nodes) <= ndLeaf {
		return
	}
	c.depth++
	defer func() { c.depth-- }()
	id := c.nextID
	c.nextID++
	reset := func() {
		for _, v := range nodes {
			c.level[v] = -1
		}
	}
	for _, v := range nodes {
		c.label[v] = id
	}
	reset()
	far, levels, cnt := c.bfs(ptr, col, sub, loc, nodes[0], id)
	if cnt < len(nodes) {
		// Disconnected: the reached component and the rest, separately.
		n0, _ := c.partition(nodes, func(v int) int {
			if c.level[v] >= 0 {
				return 0
			}
			return 1
		})
		if c.depth == 1 {
			c.split0, c.split1 = n0, len(nodes)
		}
		c.nd(ptr, col, sub, loc, nodes[:n0])
		c.nd(ptr, col, sub, loc, nodes[n0:])
		return
	}
	// Pseudo-peripheral root: restart from the farthest node while the
	// level structure gets deeper.
	root := nodes[0]
	for t := 0; t < 3; t++ {
		reset()
		f2, l2, _ := c.bfs(ptr, col, sub, loc, far, id)
		if l2 <= levels {
			reset()
			c.bfs(ptr, col, sub, loc, root, id)
			break
		}
		root, far, levels = far, f2, l2
	}
	if levels < 3 {
		return
	}
	// Separator: the level where the count from the root passes half.
	per := c.per[:levels]
	for l := range per {
		per[l] = 0
	}
	for _, v := range nodes {
		per[c.level[v]]++
	}
	s, acc := 1, 0
	for l := 0; l < levels; l++ {
		acc += per[l]
		if 2*acc >= len(nodes) {
			s = l
			break
		}
	}
	s = min(max(s, 1), levels-2)
	// Classes: 0 before the separator (and separator nodes that do not
	// touch the far side), 1 after it, 2 the separator.
	n0, n1 := c.partition(nodes, func(v int) int {
		switch lv := int(c.level[v]); {
		case lv < s:
			return 0
		case lv > s:
			return 1
		}
		for q := ptr[sub[v]]; q < ptr[sub[v]+1]; q++ {
			if u := loc[col[q]]; u >= 0 && c.label[u] == id && int(c.level[u]) == s+1 {
				return 2
			}
		}
		return 0
	})
	if c.depth == 1 {
		c.split0, c.split1 = n0, n0+n1
	}
	c.nd(ptr, col, sub, loc, nodes[:n0])
	c.nd(ptr, col, sub, loc, nodes[n0:n0+n1])
}
