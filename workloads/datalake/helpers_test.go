package datalake

import (
	"sync"
	"testing"
)

// lakes caches one lake per seed at scale 1: generating one takes most of
// a second, and many tests read the same three.
var lakes sync.Map

type lakeOnce struct {
	once sync.Once
	l    *Lake
	err  error
}

func lake(t testing.TB, seed uint64) *Lake {
	t.Helper()
	v, _ := lakes.LoadOrStore(seed, &lakeOnce{})
	o := v.(*lakeOnce)
	o.once.Do(func() { o.l, o.err = Generate(Params{Seed: seed, Scale: 1}) })
	if o.err != nil {
		t.Fatal(o.err)
	}
	return o.l
}

// seeds are the acceptance seeds.
var seeds = []uint64{1, 2, 3}
