package distributions

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"
)

// normalMinZ bounds how far below zero the mean of a Normal may sit, in
// standard deviations. Beyond −30σ the kept mass P(X ≥ 0) is below 1e-197:
// the truncated law is then numerically an exponential tail and no longer a
// meaningful runtime model, and the ratios below would lose all precision.
const normalMinZ = -30

// Normal is a normal runtime model N(Mu, Sigma²) in seconds, truncated at 0:
// T = X | X ≥ 0 with X ~ N(Mu, Sigma²), so negative runtimes get no mass and
// the remaining mass is renormalised (not piled up at 0). With
// z(t) = (t − Mu)/Sigma, Φ the standard normal CDF, Q = 1 − Φ and z0 = z(0):
//
//	F(t) = (Φ(z(t)) − Φ(z0)) / Q(z0)            for t ≥ 0
//	S(t) = Q(z(t)) / Q(z0)
//	E[T] = Mu + Sigma·φ(z0)/Q(z0)
//
// Mean is therefore ≥ Mu; for Mu ≥ 3·Sigma the truncation changes
// probabilities by less than 0.0014. Build one with NewNormal, which checks
// Sigma > 0 and Mu ≥ −30·Sigma.
type Normal struct {
	Mu, Sigma float64
}

var _ Dist = Normal{}

// NewNormal returns the normal runtime model truncated at 0, or an error
// wrapping ErrInvalid unless mu and sigma are finite, sigma > 0 and
// mu ≥ −30·sigma.
func NewNormal(mu, sigma float64) (Normal, error) {
	if math.IsNaN(mu) || math.IsInf(mu, 0) || !(sigma > 0) || math.IsInf(sigma, 0) {
		return Normal{}, fmt.Errorf("%w: normal(mu=%v, sigma=%v) needs finite mu and 0 < sigma < +Inf", ErrInvalid, mu, sigma)
	}
	if mu/sigma < normalMinZ {
		return Normal{}, fmt.Errorf("%w: normal(mu=%v, sigma=%v) keeps almost no mass above 0 (mu < %v·sigma)", ErrInvalid, mu, sigma, normalMinZ)
	}
	return Normal{Mu: mu, Sigma: sigma}, nil
}

func stdPhi(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) } // Φ(z)
func stdQ(z float64) float64   { return 0.5 * math.Erfc(z/math.Sqrt2) }  // 1 − Φ(z)
func stdPdf(z float64) float64 { return math.Exp(-z*z/2) / math.Sqrt(2*math.Pi) }

func (n Normal) z(t float64) float64 { return (t - n.Mu) / n.Sigma }

// CDF returns P(T ≤ t).
func (n Normal) CDF(t float64) float64 {
	switch {
	case t != t:
		return math.NaN()
	case t <= 0:
		return 0
	}
	z0, z := n.z(0), n.z(t)
	var num float64
	if z <= 0 {
		num = stdPhi(z) - stdPhi(z0) // both lower tails: no cancellation
	} else {
		num = stdQ(z0) - stdQ(z)
	}
	return clamp01(num / stdQ(z0))
}

// Survival returns P(T > t) = Q(z(t))/Q(z0).
func (n Normal) Survival(t float64) float64 {
	switch {
	case t != t:
		return math.NaN()
	case t <= 0:
		return 1
	}
	return clamp01(stdQ(n.z(t)) / stdQ(n.z(0)))
}

// Quantile returns the t ≥ 0 with F(t) = q, solving in whichever tail keeps
// precision: Q(z) = (1 − q)·Q(z0) when that is below ½, else
// Φ(z) = Φ(z0) + q·Q(z0). q ≤ 0 gives 0 and q ≥ 1 gives +Inf.
func (n Normal) Quantile(q float64) float64 {
	switch {
	case q != q:
		return math.NaN()
	case q <= 0:
		return 0
	case q >= 1:
		return math.Inf(1)
	}
	qz0 := stdQ(n.z(0))
	var z float64
	if upper := (1 - q) * qz0; upper < 0.5 {
		z = -distuv.UnitNormal.Quantile(upper)
	} else {
		z = distuv.UnitNormal.Quantile(stdPhi(n.z(0)) + q*qz0)
	}
	return math.Max(0, n.Mu+n.Sigma*z)
}

// Mean returns Mu + Sigma·φ(z0)/Q(z0).
func (n Normal) Mean() float64 {
	z0 := n.z(0)
	return n.Mu + n.Sigma*stdPdf(z0)/stdQ(z0)
}

// Max returns +Inf.
func (n Normal) Max() float64 { return math.Inf(1) }

// Rand draws by inversion, Quantile(U) with U from r.
func (n Normal) Rand(r *rand.Rand) float64 { return n.Quantile(r.Float64()) }

// upperPartialMean returns E[T·1{T > e}] = (Mu·Q(ze) + Sigma·φ(ze))/Q(z0).
func (n Normal) upperPartialMean(e float64) float64 {
	ze := n.z(math.Max(e, 0))
	return (n.Mu*stdQ(ze) + n.Sigma*stdPdf(ze)) / stdQ(n.z(0))
}

// LogNormal is the lognormal runtime model: ln T ~ N(Mu, Sigma²), T in
// seconds. F(t) = Φ((ln t − Mu)/Sigma), E[T] = exp(Mu + Sigma²/2). The math
// is gonum's distuv.LogNormal. Build one with NewLogNormal or
// NewLogNormalFromMoments.
type LogNormal struct {
	Mu, Sigma float64
}

var _ Dist = LogNormal{}

// NewLogNormal returns the lognormal with log-mean mu and log-sd sigma, or
// an error wrapping ErrInvalid unless mu is finite and 0 < sigma < +Inf.
func NewLogNormal(mu, sigma float64) (LogNormal, error) {
	if math.IsNaN(mu) || math.IsInf(mu, 0) || !(sigma > 0) || math.IsInf(sigma, 0) {
		return LogNormal{}, fmt.Errorf("%w: lognormal(mu=%v, sigma=%v) needs finite mu and 0 < sigma < +Inf", ErrInvalid, mu, sigma)
	}
	return LogNormal{Mu: mu, Sigma: sigma}, nil
}

// NewLogNormalFromMoments returns the lognormal with the given mean and
// standard deviation in seconds: Sigma² = ln(1 + sd²/mean²),
// Mu = ln(mean) − Sigma²/2. It needs mean > 0 and sd > 0, both finite.
func NewLogNormalFromMoments(mean, sd float64) (LogNormal, error) {
	if !(mean > 0) || math.IsInf(mean, 0) || !(sd > 0) || math.IsInf(sd, 0) {
		return LogNormal{}, fmt.Errorf("%w: lognormal with mean %v and sd %v needs both finite and > 0", ErrInvalid, mean, sd)
	}
	s2 := math.Log1p(sd * sd / (mean * mean))
	return NewLogNormal(math.Log(mean)-s2/2, math.Sqrt(s2))
}

func (l LogNormal) gonum() distuv.LogNormal { return distuv.LogNormal{Mu: l.Mu, Sigma: l.Sigma} }

// CDF returns Φ((ln t − Mu)/Sigma), 0 for t ≤ 0.
func (l LogNormal) CDF(t float64) float64 {
	switch {
	case t != t:
		return math.NaN()
	case t <= 0:
		return 0
	}
	return l.gonum().CDF(t)
}

// Survival returns Q((ln t − Mu)/Sigma), 1 for t ≤ 0.
func (l LogNormal) Survival(t float64) float64 {
	switch {
	case t != t:
		return math.NaN()
	case t <= 0:
		return 1
	}
	return l.gonum().Survival(t)
}

// Quantile returns exp(Mu + Sigma·Φ⁻¹(q)); 0 for q ≤ 0, +Inf for q ≥ 1.
func (l LogNormal) Quantile(q float64) float64 {
	switch {
	case q != q:
		return math.NaN()
	case q <= 0:
		return 0
	case q >= 1:
		return math.Inf(1)
	}
	return l.gonum().Quantile(q)
}

// Mean returns exp(Mu + Sigma²/2).
func (l LogNormal) Mean() float64 { return math.Exp(l.Mu + l.Sigma*l.Sigma/2) }

// Max returns +Inf.
func (l LogNormal) Max() float64 { return math.Inf(1) }

// Rand returns exp(Mu + Sigma·Z) with Z a standard normal drawn from r.
func (l LogNormal) Rand(r *rand.Rand) float64 { return math.Exp(l.Mu + l.Sigma*r.NormFloat64()) }

// upperPartialMean returns E[T·1{T > e}] = E[T]·Φ((Mu + Sigma² − ln e)/Sigma).
func (l LogNormal) upperPartialMean(e float64) float64 {
	if e <= 0 {
		return l.Mean()
	}
	return l.Mean() * stdPhi((l.Mu+l.Sigma*l.Sigma-math.Log(e))/l.Sigma)
}

func clamp01(x float64) float64 { return math.Min(1, math.Max(0, x)) }
