package svm

// expansion is a trained decision function on scaled vectors z:
//
//	f(z) = Σ_i coef_i K(sv_i, z) − rho,
//
// with coef_i = y_i α_i (classification) or α_i − α*_i (regression), and for
// the linear kernel the collapsed f(z) = w·z − rho, w = Σ_i coef_i sv_i.
type expansion struct {
	k    kernelFunc
	d    int
	sv   []float64 // support vectors, row-major, scaled
	coef []float64
	rho  float64
	w    []float64 // linear kernel only
}

func newExpansion(k kernelFunc, d int, sv, coef []float64, rho float64) expansion {
	e := expansion{k: k, d: d, sv: sv, coef: coef, rho: rho}
	if k.kind == Linear {
		e.w = make([]float64, d)
		for i, c := range coef {
			for f, v := range sv[i*d : (i+1)*d] {
				e.w[f] += c * v
			}
		}
	}
	return e
}

func (e *expansion) value(z []float64) float64 {
	if e.w != nil {
		return dot(e.w, z) - e.rho
	}
	var s float64
	for i, c := range e.coef {
		s += c * e.k.eval(e.sv[i*e.d:(i+1)*e.d], z)
	}
	return s - e.rho
}

// model is what both predictors share: the scaler fitted on the training
// set, the expansion and the resolved parameters.
type model struct {
	scaler *Scaler
	e      expansion
	params Params
}

// maxStackFeatures bounds the vectors scaled without a heap allocation.
const maxStackFeatures = 32

func (m *model) value(x Vector) float64 {
	var buf [maxStackFeatures]float64
	var z []float64
	if len(x) <= maxStackFeatures {
		z = buf[:len(x)]
	} else {
		z = make([]float64, len(x))
	}
	return m.e.value(m.scaler.applyTo(z, x))
}

// linear returns w, b with f(x) = w·x + b in the unscaled features, for
// the linear kernel.
func (m *model) linear() (w []float64, b float64, ok bool) {
	if m.e.k.kind != Linear {
		return nil, 0, false
	}
	w = make([]float64, m.e.d)
	b = -m.e.rho
	for k, wk := range m.e.w {
		w[k] = wk / m.scaler.Scale[k]
		b -= w[k] * m.scaler.Shift[k]
	}
	return w, b, true
}

// Classifier is a trained two-class C-SVC. It owns no C memory and is safe
// for concurrent use.
type Classifier struct{ m model }

// Decision is f(x): positive for the positive class, its magnitude the
// distance from the separating surface in units of the margin. It panics
// when x has a different number of features from the training set.
func (c *Classifier) Decision(x Vector) float64 { return c.m.value(x) }

// Classify reports whether x falls in the positive class, f(x) > 0 (libsvm's
// rule: 0 goes to the negative class).
func (c *Classifier) Classify(x Vector) bool { return c.m.value(x) > 0 }

// Params are the parameters the model was trained with, Gamma and Backend
// resolved.
func (c *Classifier) Params() Params { return c.m.params }

// SupportVectors is the number of training vectors with α > 0.
func (c *Classifier) SupportVectors() int { return len(c.m.e.coef) }

// Linear returns w and b with f(x) = w·x + b in the caller's (unscaled)
// features; ok is false unless the kernel is linear.
func (c *Classifier) Linear() (w []float64, b float64, ok bool) { return c.m.linear() }

// Regressor is a trained ε-SVR. It owns no C memory and is safe for
// concurrent use.
type Regressor struct{ m model }

// Predict is f(x), in the units of the training targets. It panics when x
// has a different number of features from the training set.
func (r *Regressor) Predict(x Vector) float64 { return r.m.value(x) }

// Params are the parameters the model was trained with, Gamma and Backend
// resolved.
func (r *Regressor) Params() Params { return r.m.params }

// SupportVectors is the number of training vectors with α ≠ α*.
func (r *Regressor) SupportVectors() int { return len(r.m.e.coef) }

// Linear returns w and b with f(x) = w·x + b in the caller's (unscaled)
// features; ok is false unless the kernel is linear.
func (r *Regressor) Linear() (w []float64, b float64, ok bool) { return r.m.linear() }
