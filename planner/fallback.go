package planner

// fallback is the last stage: when no earlier stage decided (the solver gave
// no usable answer, or a stage failed), the priority rule of the prio
// baseline decides this cycle, so that it still ends on time with a
// decision (DESIGN.md step 4): SLO jobs by deadline, then best-effort jobs
// by submit time, each placed greedily where it fits now (PlaceGreedy). It
// preempts nothing.
func (c *cycle) fallback() {
	c.dec = &Decision{Start: PlaceGreedy(c.st, PrioOrder(c.st.Pending))}
	c.dec.Stats.Fallback = true
}
