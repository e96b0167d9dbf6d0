package mpi

import "fmt"

// Leg is one direction of a neighbour exchange: this rank sends to Dest
// and receives from Src (either may be ProcNull) under Tag. Ranks agree
// on a message's leg by its tag: the leg "one step up dimension d" of
// Cart.Shift(d, 1) sends up and receives from below under the same tag on
// every rank.
type Leg struct{ Src, Dest, Tag int }

// Exchange sends out[k] along leg k and receives leg k's incoming message
// into in[k], for every leg at once: each message's length goes first
// (one int32, non-blocking), then every payload (non-blocking), so one
// batched message per neighbour and direction. in[k] is grown as needed
// and resliced to the received length. The byte count of the payloads
// sent is returned.
func Exchange(c Comm, legs []Leg, out, in [][]float64) (sent int, err error) {
	nl := len(legs)
	if len(out) != nl || len(in) != nl {
		return 0, fmt.Errorf("mpi: exchange of %d legs with %d and %d buffers", nl, len(out), len(in))
	}
	cnt := make([]int32, 2*nl) // [0:nl] out, [nl:2nl] in
	reqs := make([]Request, 0, 2*nl)
	for k, l := range legs {
		r, err := c.IrecvInt32(cnt[nl+k:nl+k+1], l.Src, l.Tag)
		if err != nil {
			return 0, err
		}
		reqs = append(reqs, r)
	}
	for k, l := range legs {
		cnt[k] = int32(len(out[k]))
		r, err := c.IsendInt32(cnt[k:k+1], l.Dest, l.Tag)
		if err != nil {
			return 0, err
		}
		reqs = append(reqs, r)
	}
	if err := WaitAll(reqs); err != nil {
		return 0, err
	}
	reqs = reqs[:0]
	for k, l := range legs {
		n := int(cnt[nl+k])
		if l.Src == ProcNull {
			n = 0
		}
		if cap(in[k]) < n {
			in[k] = make([]float64, n, n+n/4+16)
		}
		in[k] = in[k][:n]
		if n == 0 {
			continue
		}
		r, err := c.Irecv(in[k], l.Src, l.Tag)
		if err != nil {
			return 0, err
		}
		reqs = append(reqs, r)
	}
	for k, l := range legs {
		if len(out[k]) == 0 || l.Dest == ProcNull {
			continue
		}
		r, err := c.Isend(out[k], l.Dest, l.Tag)
		if err != nil {
			return 0, err
		}
		sent += 8 * len(out[k])
		reqs = append(reqs, r)
	}
	return sent, WaitAll(reqs)
}

// Gather collects every rank's send on root: on root in[r] is rank r's
// message (in[root] a copy of send), elsewhere in is untouched. Messages
// go with their lengths, so they may differ per rank.
func Gather(c Comm, root, tag int, send []float64, in [][]float64) error {
	if c.Rank() != root {
		return sendMsg(c, root, tag, send)
	}
	for r := 0; r < c.Size(); r++ {
		if r == root {
			in[r] = append(in[r][:0], send...)
			continue
		}
		var err error
		if in[r], err = recvMsg(c, r, tag, in[r]); err != nil {
			return err
		}
	}
	return nil
}

// Bcast sends root's buf to every rank and returns each rank's copy
// (buf grown as needed).
func Bcast(c Comm, root, tag int, buf []float64) ([]float64, error) {
	if c.Rank() != root {
		return recvMsg(c, root, tag, buf)
	}
	for r := 0; r < c.Size(); r++ {
		if r != root {
			if err := sendMsg(c, r, tag, buf); err != nil {
				return buf, err
			}
		}
	}
	return buf, nil
}

func sendMsg(c Comm, dest, tag int, data []float64) error {
	n := []int32{int32(len(data))}
	r, err := c.IsendInt32(n, dest, tag)
	if err != nil {
		return err
	}
	if _, err := r.Wait(); err != nil {
		return err
	}
	if len(data) == 0 {
		return nil
	}
	if r, err = c.Isend(data, dest, tag); err != nil {
		return err
	}
	_, err = r.Wait()
	return err
}

func recvMsg(c Comm, src, tag int, buf []float64) ([]float64, error) {
	n := []int32{0}
	r, err := c.IrecvInt32(n, src, tag)
	if err != nil {
		return buf, err
	}
	if _, err := r.Wait(); err != nil {
		return buf, err
	}
	k := int(n[0])
	if cap(buf) < k {
		buf = make([]float64, k, k+k/4+16)
	}
	buf = buf[:k]
	if k == 0 {
		return buf, nil
	}
	if r, err = c.Irecv(buf, src, tag); err != nil {
		return buf, err
	}
	_, err = r.Wait()
	return buf, err
}
