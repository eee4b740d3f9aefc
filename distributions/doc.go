// Package distributions owns job runtime distributions in seconds: the Dist
// and Piecewise interfaces, the Ben-Haim & Tom-Tov streaming histogram, and
// the empirical, uniform, point, normal and lognormal families with their
// scaled, shifted, conditional and discretised forms.
package distributions
