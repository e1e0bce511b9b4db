//! Estimates with confidence intervals.
//!
//! Accumulators are mergeable sufficient statistics ([`MeanAcc`], [`CountAcc`]); an
//! [`Estimate`] is made from one at a stated confidence level and records `n`, the level,
//! which sides the level applies to, the method and the run seed.
//!
//! With [`Sides::One`] the `lower` and `upper` limits are *each* a one-sided limit at the
//! stated level (the pair is a two-sided interval at level `2c - 1`); this is what a verdict
//! "measured <= bound" (or ">=") needs. With [`Sides::Two`], `[lower, upper]` covers the mean
//! at the stated level.

use crate::runner::Merge;
use serde::{Deserialize, Serialize};
use statrs::distribution::{Beta, ContinuousCDF, Normal, StudentsT};

/// Errors in turning an accumulator into an estimate.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum StatsError {
    #[error("confidence level {0} is out of range: expected a number in (0, 1)")]
    /// A confidence level outside (0, 1).
    Confidence(f64),
    #[error("{method} needs at least {needed} trials, got {got}")]
    /// Fewer trials than the method needs.
    TooFewTrials {
        /// The interval method.
        method: &'static str,
        /// The trials it needs.
        needed: u64,
        /// The trials there are.
        got: u64,
    },
    #[error("{0} trial(s) produced a non-finite value (NaN or infinity); the simulation diverged")]
    /// Some trials produced NaN or infinity.
    NonFinite(u64),
    #[error(
        "a value {value} lies outside the declared range [{lo}, {hi}] of an empirical-Bernstein estimate"
    )]
    /// A value outside the range an empirical-Bernstein interval was promised.
    OutOfRange {
        /// The value.
        value: f64,
        /// The declared lower end.
        lo: f64,
        /// The declared upper end.
        hi: f64,
    },
    #[error("[{lo}, {hi}] is not a bracket (lower end above the upper one, or NaN)")]
    /// A bracket whose ends are out of order or NaN.
    Bracket {
        /// The lower end.
        lo: f64,
        /// The upper end.
        hi: f64,
    },
    #[error("{successes} successes out of {trials} trials is not a valid count")]
    /// More successes than trials.
    Count {
        /// Successes.
        successes: u64,
        /// Trials.
        trials: u64,
    },
}

/// Running mean and variance (Welford), with Chan et al.'s merge; also min, max and the
/// number of non-finite values seen (which make any estimate an error).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MeanAcc {
    /// Number of finite values.
    pub n: u64,
    /// Their mean.
    pub mean: f64,
    /// Sum of squared deviations from the mean.
    pub m2: f64,
    /// Their minimum ($+\infty$ when empty).
    pub min: f64,
    /// Their maximum ($-\infty$ when empty).
    pub max: f64,
    /// Number of non-finite values pushed.
    pub non_finite: u64,
}

impl Default for MeanAcc {
    fn default() -> Self {
        Self {
            n: 0,
            mean: 0.0,
            m2: 0.0,
            min: f64::INFINITY,
            max: f64::NEG_INFINITY,
            non_finite: 0,
        }
    }
}

impl MeanAcc {
    /// The empty accumulator.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one value (a non-finite one is only counted).
    pub fn push(&mut self, x: f64) {
        if !x.is_finite() {
            self.non_finite += 1;
            return;
        }
        self.n += 1;
        let d = x - self.mean;
        self.mean += d / self.n as f64;
        self.m2 += d * (x - self.mean);
        self.min = self.min.min(x);
        self.max = self.max.max(x);
    }

    /// Unbiased sample variance (0 for fewer than two values).
    pub fn variance(&self) -> f64 {
        if self.n < 2 {
            0.0
        } else {
            (self.m2 / (self.n - 1) as f64).max(0.0)
        }
    }

    fn check(&self, method: &'static str, needed: u64) -> Result<(), StatsError> {
        if self.non_finite > 0 {
            return Err(StatsError::NonFinite(self.non_finite));
        }
        if self.n < needed {
            return Err(StatsError::TooFewTrials {
                method,
                needed,
                got: self.n,
            });
        }
        Ok(())
    }
}

/// The part of a merge shared by the accumulators that count values `n` and non-finite values:
/// adds the non-finite counts, settles the merges with an empty side, and returns `later` when
/// both sides hold values (the caller then merges the statistics).
fn merge_nonempty<T>(
    acc: &mut T,
    mut later: T,
    n: impl Fn(&T) -> u64,
    non_finite: impl Fn(&mut T) -> &mut u64,
) -> Option<T> {
    let extra = *non_finite(&mut later);
    *non_finite(acc) += extra;
    if n(&later) == 0 {
        return None;
    }
    if n(acc) == 0 {
        let nf = *non_finite(acc);
        *acc = later;
        *non_finite(acc) = nf;
        return None;
    }
    Some(later)
}

impl Merge for MeanAcc {
    fn merge(&mut self, later: Self) {
        let Some(later) = merge_nonempty(self, later, |a| a.n, |a| &mut a.non_finite) else {
            return;
        };
        let n = self.n + later.n;
        let d = later.mean - self.mean;
        let (na, nb, nn) = (self.n as f64, later.n as f64, n as f64);
        self.mean += d * nb / nn;
        self.m2 += later.m2 + d * d * na * nb / nn;
        self.n = n;
        self.min = self.min.min(later.min);
        self.max = self.max.max(later.max);
    }
}

/// Successes out of trials, for proportions.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CountAcc {
    /// Number of successes.
    pub successes: u64,
    /// Number of trials.
    pub trials: u64,
}

impl CountAcc {
    /// Adds one trial.
    pub fn push(&mut self, success: bool) {
        self.trials += 1;
        self.successes += u64::from(success);
    }
}

impl Merge for CountAcc {
    fn merge(&mut self, later: Self) {
        self.successes += later.successes;
        self.trials += later.trials;
    }
}

/// Which limits the confidence level applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Sides {
    /// `lower` and `upper` are each one-sided limits at the level.
    One,
    /// `[lower, upper]` is a two-sided interval at the level.
    Two,
}

/// How an estimate's interval was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// Student t interval on a mean.
    StudentT,
    /// Empirical-Bernstein interval on a mean of values in a known range (Maurer & Pontil 2009).
    EmpiricalBernstein,
    /// Clopper–Pearson interval on a proportion.
    ClopperPearson,
    /// Computed exactly (no sampling): `lower = mean = upper`.
    Exact,
    /// A deterministic numerical value with a rigorous error bound: `lower = mean - error`,
    /// `upper = mean + error`.
    Computed,
    /// A deterministic numerical value whose error is *estimated*, not bounded: grid
    /// refinement, `mean` on the fine grid and `error` $=2|\text{fine}-\text{coarse}|$ (see
    /// [`refinement_estimate`]). No certified coverage.
    RefinementEstimate,
    /// A certified bracket `[lower, upper]` of a computed value (e.g. a PLD accountant's
    /// optimistic and pessimistic ends): the value lies in it for certain; `mean` is its midpoint.
    Bracket,
    /// Dvoretzky–Kiefer–Wolfowitz–Massart band on two empirical CDFs.
    Dkw,
    /// Least-squares slope of $\ln\bar x_i$ on $\ln x_i$, normal interval by the delta method
    /// (independent design points).
    LogSlope,
    /// The same slope from a paired design (every trial measures every design point, e.g. with
    /// common random numbers): Student t interval on the per-trial linearised slopes
    /// ([`paired_log_slope`]).
    PairedLogSlope,
    /// The largest of `n` *sampled* instances of a quantity bounded by a deterministic
    /// inequality: a maximum over the instances drawn, not the supremum over all instances (no
    /// confidence statement about the supremum). `[lower, upper]` covers the numerical error of
    /// the instances' values when one is stated, else `lower = mean = upper`.
    SampledMaximum,
    /// Mean of values in $\[0,B\]$: the better of Hoeffding's KL-Chernoff limit (tight near 0) and
    /// the empirical Bernstein limit (tight at small variance), each at half the error level.
    KlBernstein,
}

/// A point estimate with its interval, and everything needed to reproduce it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// Point estimate.
    pub mean: f64,
    /// Lower confidence limit.
    pub lower: f64,
    /// Upper confidence limit.
    pub upper: f64,
    /// Number of trials (0 for computed values).
    pub n: u64,
    /// Confidence level of the limits.
    pub confidence: f64,
    /// Whether the level applies to each limit or to the interval.
    pub sides: Sides,
    /// How the interval was made.
    pub method: Method,
    /// The run seed.
    pub seed: u64,
}

/// The per-side error probability for a level and sidedness.
fn tail_probability(confidence: f64, sides: Sides) -> Result<f64, StatsError> {
    if !(confidence > 0.0 && confidence < 1.0) {
        return Err(StatsError::Confidence(confidence));
    }
    Ok(match sides {
        Sides::One => 1.0 - confidence,
        Sides::Two => (1.0 - confidence) / 2.0,
    })
}

/// Student t interval for the mean: $\bar x\pm t_{n-1,1-a}\thinspace s/\sqrt n$ with `a` the per-side
/// error probability. Needs $n\ge2$.
pub fn student_t(
    acc: &MeanAcc,
    confidence: f64,
    sides: Sides,
    seed: u64,
) -> Result<Estimate, StatsError> {
    let a = tail_probability(confidence, sides)?;
    acc.check("a Student t interval", 2)?;
    let dist =
        StudentsT::new(0.0, 1.0, (acc.n - 1) as f64).expect("n >= 2 gives a valid t distribution");
    let q = dist.inverse_cdf(1.0 - a);
    let half = q * (acc.variance() / acc.n as f64).sqrt();
    Ok(Estimate {
        mean: acc.mean,
        lower: acc.mean - half,
        upper: acc.mean + half,
        n: acc.n,
        confidence,
        sides,
        method: Method::StudentT,
        seed,
    })
}

/// Histograms of two samples (of laws $P$ and $Q$) on a common grid of `bins` equal bins over
/// `[lo, hi]` (values outside are counted in the end bins). Integer counts merge exactly in any
/// order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TwoSampleHistogram {
    /// `lo` and `hi` as bit patterns (see [`TwoSampleHistogram::new`]).
    pub lo_hi: (u64, u64),
    /// Counts of the draws of $P$, per bin.
    pub p: Vec<u64>,
    /// Counts of the draws of $Q$, per bin.
    pub q: Vec<u64>,
}

impl TwoSampleHistogram {
    /// `lo` and `hi` are stored as bit patterns so the struct stays `Eq`.
    pub fn new(lo: f64, hi: f64, bins: usize) -> Self {
        Self {
            lo_hi: (lo.to_bits(), hi.to_bits()),
            p: vec![0; bins],
            q: vec![0; bins],
        }
    }

    fn bin(&self, x: f64) -> usize {
        let (lo, hi) = (f64::from_bits(self.lo_hi.0), f64::from_bits(self.lo_hi.1));
        let n = self.p.len();
        let k = ((x - lo) / (hi - lo) * n as f64).floor();
        if k.is_nan() || k < 0.0 {
            0
        } else {
            (k as usize).min(n - 1)
        }
    }

    /// One draw `x ~ P` and one draw `y ~ Q`.
    pub fn push(&mut self, x: f64, y: f64) {
        let (i, j) = (self.bin(x), self.bin(y));
        self.p[i] += 1;
        self.q[j] += 1;
    }
}

impl Merge for TwoSampleHistogram {
    fn merge(&mut self, later: Self) {
        if self.p.iter().all(|c| *c == 0) && self.q.iter().all(|c| *c == 0) {
            *self = later;
            return;
        }
        self.p.iter_mut().zip(later.p).for_each(|(a, b)| *a += b);
        self.q.iter_mut().zip(later.q).for_each(|(a, b)| *a += b);
    }
}

/// The half-line hockey-stick functional $H=\max_A[P(A)-e^\varepsilon Q(A)]$ over the sets
/// $A=\lbrace s\le t\rbrace$ and $\lbrace s>t\rbrace$ ($t$ at the bin edges), both orders, a lower bound on
/// $\max(\mathsf E_\varepsilon(P\Vert Q),\mathsf E_\varepsilon(Q\Vert P))$. With $M$ draws of each and
/// $u=\sqrt{\ln(4/\beta)/(2M)}$ (DKW–Massart for both samples, $\beta$ the error probability),
/// the empirical $\hat H$ is within $(1+e^\varepsilon)u$ of $H$.
pub fn half_line_hockey_stick(
    h: &TwoSampleHistogram,
    epsilon: f64,
    confidence: f64,
    sides: Sides,
    seed: u64,
) -> Result<Estimate, StatsError> {
    let beta = tail_probability(confidence, sides)?;
    let m: u64 = h.p.iter().sum();
    let m_q: u64 = h.q.iter().sum();
    if m < 2 || m != m_q {
        return Err(StatsError::TooFewTrials {
            method: "a DKW band (equal samples of both laws)",
            needed: 2,
            got: m.min(m_q),
        });
    }
    let g = epsilon.exp();
    let (mf, mut cp, mut cq) = (m as f64, 0u64, 0u64);
    let mut best = 0.0_f64;
    for (a, b) in h.p.iter().zip(&h.q) {
        cp += a;
        cq += b;
        let (fp, fq) = (cp as f64 / mf, cq as f64 / mf);
        for v in [
            fp - g * fq,
            fq - g * fp,
            (1.0 - fp) - g * (1.0 - fq),
            (1.0 - fq) - g * (1.0 - fp),
        ] {
            best = best.max(v);
        }
    }
    let half = (1.0 + g) * ((4.0 / beta).ln() / (2.0 * mf)).sqrt();
    Ok(Estimate {
        mean: best,
        lower: best - half,
        upper: best + half,
        n: m,
        confidence,
        sides,
        method: Method::Dkw,
        seed,
    })
}

/// A computed value with its numerical error: the interval $[v-e,v+e]$ (no sampling). An
/// infinite value with a finite error (a ratio over an exact zero, set on purpose) is the point
/// $\[v,v\]$; with an infinite error (it may be an overflow of a finite value) it is the whole
/// line; either way no end is $\infty-\infty$ = NaN.
pub fn computed(value: f64, error: f64, seed: u64) -> Estimate {
    let (lower, upper) = if value.is_infinite() && error.is_finite() {
        (value, value)
    } else if value.is_infinite() {
        (f64::NEG_INFINITY, f64::INFINITY)
    } else {
        (value - error, value + error)
    };
    Estimate {
        mean: value,
        lower,
        upper,
        n: 0,
        confidence: 1.0,
        sides: Sides::Two,
        method: Method::Computed,
        seed,
    }
}

/// A grid value with its refinement error *estimate*: `fine` on the grid used, `coarse` on the
/// grid of half as many cells, the interval `fine` $\pm 2|\text{fine}-\text{coarse}|$.
///
/// If the discretisation error behaves as $Ch^r$ in the cell width $h$ with order $r\ge1$,
/// the error of the fine value is $|\text{fine}-\text{coarse}|/(2^r-1)\le|\text{fine}-\text{coarse}|$
/// (Richardson); the factor 2 is a margin for grids not yet in that asymptotic regime. This is
/// an estimate, not a bound ([`Method::RefinementEstimate`]): it can fail where the error is not
/// monotone in $h$ (e.g. two grids that happen to agree).
pub fn refinement_estimate(fine: f64, coarse: f64, seed: u64) -> Estimate {
    Estimate {
        method: Method::RefinementEstimate,
        ..computed(fine, 2.0 * (fine - coarse).abs(), seed)
    }
}

/// A certified bracket $[\text{lo},\text{hi}]$ of a computed value, e.g. a PLD accountant's
/// optimistic and pessimistic ends (the true value lies in it for certain, rounding included):
/// `lower = lo`, `upper = hi`, `mean` the midpoint. An infinite end is kept (and the midpoint is
/// then that end). Errors if `lo > hi` or either end is NaN.
pub fn bracket(lo: f64, hi: f64, seed: u64) -> Result<Estimate, StatsError> {
    if lo.is_nan() || hi.is_nan() || lo > hi {
        return Err(StatsError::Bracket { lo, hi });
    }
    let mean = if lo.is_infinite() {
        lo
    } else if hi.is_infinite() {
        hi
    } else {
        lo + 0.5 * (hi - lo)
    };
    Ok(Estimate {
        mean,
        lower: lo,
        upper: hi,
        n: 0,
        confidence: 1.0,
        sides: Sides::Two,
        method: Method::Bracket,
        seed,
    })
}

/// The least-squares slope of `ys` on `xs`, $\sum_i(x_i-\bar x)y_i/\sum_i(x_i-\bar x)^2$.
pub fn least_squares_slope(xs: &[f64], ys: &[f64]) -> f64 {
    let x_bar = xs.iter().sum::<f64>() / xs.len() as f64;
    let sxx: f64 = xs.iter().map(|x| (x - x_bar) * (x - x_bar)).sum();
    xs.iter().zip(ys).map(|(x, y)| (x - x_bar) * y).sum::<f64>() / sxx
}

/// The least-squares fit of $\ln\bar y_j$ on $u_j=\ln x_j$: its slope and the weights
/// $w_j=(u_j-\bar u)/\sum_k(u_k-\bar u)^2$ (slope $=\sum_jw_j\ln\bar y_j$). Errors with fewer
/// than two design points (or as many means as points) and for a mean that is not positive.
fn log_log_fit(
    xs: &[f64],
    means: &[f64],
    method: &'static str,
) -> Result<(f64, Vec<f64>), StatsError> {
    if xs.len() != means.len() || xs.len() < 2 {
        return Err(StatsError::TooFewTrials {
            method,
            needed: 2,
            got: xs.len().min(means.len()) as u64,
        });
    }
    if let Some(m) = means.iter().find(|m| m.is_nan() || **m <= 0.0) {
        return Err(StatsError::OutOfRange {
            value: *m,
            lo: f64::MIN_POSITIVE,
            hi: f64::INFINITY,
        });
    }
    let u: Vec<f64> = xs.iter().map(|x| x.ln()).collect();
    let u_bar = u.iter().sum::<f64>() / u.len() as f64;
    let sxx: f64 = u.iter().map(|v| (v - u_bar) * (v - u_bar)).sum();
    let weights = u.iter().map(|v| (v - u_bar) / sxx).collect();
    let log_means: Vec<f64> = means.iter().map(|m| m.ln()).collect();
    Ok((least_squares_slope(&u, &log_means), weights))
}

/// Slope $b$ of the least-squares line $\ln\bar y_i=a+b\ln x_i$ through the means of `accs`
/// (one per design point `xs`), with a normal interval: $\mathrm{Var}\thinspace b=\sum_iw_i^2s_i^2/(n_i\bar y_i^2)$,
/// $w_i=(u_i-\bar u)/\sum_j(u_j-\bar u)^2$, $u=\ln x$ (delta method; the points are independent).
/// `n` of the estimate is the smallest number of trials of a point.
pub fn log_slope(
    xs: &[f64],
    accs: &[MeanAcc],
    confidence: f64,
    sides: Sides,
    seed: u64,
) -> Result<Estimate, StatsError> {
    let a = tail_probability(confidence, sides)?;
    if accs.len() == xs.len() {
        for acc in accs {
            acc.check("a log-log slope", 2)?;
        }
    }
    let means: Vec<f64> = accs.iter().map(|acc| acc.mean).collect();
    let (slope, weights) = log_log_fit(xs, &means, "a log-log slope (two design points or more)")?;
    let var: f64 = weights
        .iter()
        .zip(accs)
        .map(|(w, acc)| w * w * acc.variance() / (acc.n as f64 * acc.mean * acc.mean))
        .sum();
    let z = Normal::standard().inverse_cdf(1.0 - a);
    let half = z * var.sqrt();
    Ok(Estimate {
        mean: slope,
        lower: slope - half,
        upper: slope + half,
        n: accs.iter().map(|acc| acc.n).min().unwrap_or(0),
        confidence,
        sides,
        method: Method::LogSlope,
        seed,
    })
}

/// Running mean vector and co-moment matrix of vectors of a fixed length $J$ (one value per
/// design point of a trial), with the multivariate form of Chan et al.'s merge; also the number
/// of vectors with a non-finite component (which make any estimate an error).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VectorAcc {
    /// Number of finite vectors.
    pub n: u64,
    /// Their mean, per component.
    pub mean: Vec<f64>,
    /// $C_{jk}=\sum_t(y_{tj}-\bar y_j)(y_{tk}-\bar y_k)$, row-major $J\times J$.
    pub comoment: Vec<f64>,
    /// Number of vectors with a non-finite component pushed.
    pub non_finite: u64,
}

impl VectorAcc {
    /// The empty accumulator of vectors of length `len`.
    pub fn new(len: usize) -> Self {
        Self {
            n: 0,
            mean: vec![0.0; len],
            comoment: vec![0.0; len * len],
            non_finite: 0,
        }
    }

    /// The vectors' length $J$.
    pub fn len(&self) -> usize {
        self.mean.len()
    }

    /// Whether the vectors have length 0.
    pub fn is_empty(&self) -> bool {
        self.mean.is_empty()
    }

    /// Adds one vector (one with a non-finite component is only counted). Panics if its length
    /// is not $J$ (a programming error, not input).
    pub fn push(&mut self, y: &[f64]) {
        assert_eq!(y.len(), self.len(), "a vector of the wrong length");
        if y.iter().any(|v| !v.is_finite()) {
            self.non_finite += 1;
            return;
        }
        self.n += 1;
        let n = self.n as f64;
        let len = self.len();
        let before: Vec<f64> = y.iter().zip(&self.mean).map(|(v, m)| v - m).collect();
        for (m, d) in self.mean.iter_mut().zip(&before) {
            *m += d / n;
        }
        for j in 0..len {
            let after_j = y[j] - self.mean[j];
            for k in 0..len {
                self.comoment[j * len + k] += before[k] * after_j;
            }
        }
    }

    /// The unbiased sample covariance $C_{jk}/(n-1)$ (0 for fewer than two vectors).
    pub fn covariance(&self, j: usize, k: usize) -> f64 {
        if self.n < 2 {
            0.0
        } else {
            self.comoment[j * self.len() + k] / (self.n - 1) as f64
        }
    }
}

impl Merge for VectorAcc {
    fn merge(&mut self, later: Self) {
        assert_eq!(
            self.len(),
            later.len(),
            "merging vectors of different lengths"
        );
        let Some(later) = merge_nonempty(self, later, |a| a.n, |a| &mut a.non_finite) else {
            return;
        };
        let len = self.len();
        let (na, nb) = (self.n as f64, later.n as f64);
        let nn = na + nb;
        let d: Vec<f64> = later
            .mean
            .iter()
            .zip(&self.mean)
            .map(|(b, a)| b - a)
            .collect();
        for j in 0..len {
            self.mean[j] += d[j] * nb / nn;
            for k in 0..len {
                self.comoment[j * len + k] +=
                    later.comoment[j * len + k] + d[j] * d[k] * na * nb / nn;
            }
        }
        self.n += later.n;
    }
}

/// Slope $b$ of the least-squares line $\ln\bar y_j=a+b\ln x_j$ through the means of a *paired*
/// design: every trial $t$ measures every design point, $Y_t=(Y_{t1},\dots,Y_{tJ})$, the $Y_t$
/// i.i.d. over trials but the components of one $Y_t$ dependent (common random numbers, or data
/// shared by a trial's design points), which [`log_slope`]'s independent-points variance ignores.
///
/// **Interval.** With $u_j=\ln x_j$, $w_j=(u_j-\bar u)/\sum_k(u_k-\bar u)^2$ and $\mu_j=\mathbb
/// EY_{tj}>0$, the estimate $\hat b=\sum_jw_j\ln\bar y_j$ of $b=\sum_jw_j\ln\mu_j$ has the
/// first-order expansion $\hat b-b=\frac1n\sum_tZ_t+O_P(1/n)$ with
/// $Z_t=\sum_jw_j(Y_{tj}-\mu_j)/\mu_j$ (delta method), and the $Z_t$ are i.i.d. with mean 0 and
/// variance $\nabla^\top\Sigma\nabla$, $\nabla_j=w_j/\mu_j$, $\Sigma$ the covariance of $Y_t$:
/// the dependence between design points enters through $\Sigma$'s off-diagonal terms. The
/// interval is $\hat b\pm t_{n-1,1-a}\thinspace s_Z/\sqrt n$, $s_Z^2=\sum_{jk}\nabla_j\nabla_kS_{jk}$ with
/// $S$ the sample covariance and $\mu$ replaced by $\bar y$ — the Student t interval on the
/// linearised per-trial slopes $\hat Z_t=\sum_jw_jY_{tj}/\bar y_j$ (whose sample variance is
/// exactly $s_Z^2$). Its level is asymptotic (CLT and delta method), as [`log_slope`]'s is; it
/// reduces to [`log_slope`]'s variance when $\Sigma$ is diagonal (independent points) except
/// for the t quantile, slightly wider than the normal one.
pub fn paired_log_slope(
    xs: &[f64],
    acc: &VectorAcc,
    confidence: f64,
    sides: Sides,
    seed: u64,
) -> Result<Estimate, StatsError> {
    let a = tail_probability(confidence, sides)?;
    if acc.non_finite > 0 {
        return Err(StatsError::NonFinite(acc.non_finite));
    }
    if acc.n < 2 {
        return Err(StatsError::TooFewTrials {
            method: "a paired log-log slope",
            needed: 2,
            got: acc.n,
        });
    }
    let (slope, weights) = log_log_fit(
        xs,
        &acc.mean,
        "a paired log-log slope (two design points or more)",
    )?;
    let grad: Vec<f64> = weights.iter().zip(&acc.mean).map(|(w, m)| w / m).collect();
    let mut var_z = 0.0;
    for (j, gj) in grad.iter().enumerate() {
        for (k, gk) in grad.iter().enumerate() {
            var_z += gj * gk * acc.covariance(j, k);
        }
    }
    let dist = StudentsT::new(0.0, 1.0, (acc.n - 1) as f64).expect("n >= 2 gives a valid t");
    let half = dist.inverse_cdf(1.0 - a) * (var_z.max(0.0) / acc.n as f64).sqrt();
    Ok(Estimate {
        mean: slope,
        lower: slope - half,
        upper: slope + half,
        n: acc.n,
        confidence,
        sides,
        method: Method::PairedLogSlope,
        seed,
    })
}

/// Empirical Bernstein interval (Maurer & Pontil 2009, Thm 4) for values in `[lo, hi]`,
/// $R=hi-lo$, $V$ the unbiased sample variance, `a` the per-side error probability:
/// $\mathbb E X\le\bar x+\sqrt{2V\ln(2/a)/n}+7R\ln(2/a)/(3(n-1))$, and symmetrically below.
/// Valid for any $n\ge2$ without a normal approximation.
pub fn empirical_bernstein(
    acc: &MeanAcc,
    lo: f64,
    hi: f64,
    confidence: f64,
    sides: Sides,
    seed: u64,
) -> Result<Estimate, StatsError> {
    let a = tail_probability(confidence, sides)?;
    acc.check("an empirical Bernstein interval", 2)?;
    for v in [acc.min, acc.max] {
        if v < lo || v > hi {
            return Err(StatsError::OutOfRange { value: v, lo, hi });
        }
    }
    let n = acc.n as f64;
    let l = (2.0 / a).ln();
    let half = (2.0 * acc.variance() * l / n).sqrt() + 7.0 * (hi - lo) * l / (3.0 * (n - 1.0));
    Ok(Estimate {
        mean: acc.mean,
        lower: (acc.mean - half).max(lo),
        upper: (acc.mean + half).min(hi),
        n: acc.n,
        confidence,
        sides,
        method: Method::EmpiricalBernstein,
        seed,
    })
}

/// $\mathrm{kl}(a\Vert b)=a\ln\frac ab+(1-a)\ln\frac{1-a}{1-b}$, the Bernoulli relative entropy.
fn bernoulli_kl(a: f64, b: f64) -> f64 {
    let term = |x: f64, y: f64| if x > 0.0 { x * (x / y).ln() } else { 0.0 };
    term(a, b) + term(1.0 - a, 1.0 - b)
}

/// Hoeffding's (1963, Thm 1) KL-Chernoff limits for the mean $\mu$ of i.i.d. values in $\[0,1\]$:
/// $P(\bar x\ge\mu+t)\le e^{-n\thinspace\mathrm{kl}(\mu+t\Vert\mu)}$ and likewise below, so with error `a`
/// per side the limits are the $p$ on either side of $\bar x$ with $n\thinspace\mathrm{kl}(\bar x\Vert p)=\ln(1/a)$
/// (bisection). The Bernoulli case is the worst for a given mean, so the limit is tight near 0
/// where a normal or Bernstein interval is not.
pub fn kl_chernoff_limits(mean: f64, n: u64, a: f64) -> (f64, f64) {
    let target = (1.0 / a).ln() / n as f64;
    let m = mean.clamp(0.0, 1.0);
    let solve = |mut inside: f64, mut outside: f64| {
        // invariant: kl(m, inside) <= target < kl(m, outside)
        for _ in 0..200 {
            let mid = 0.5 * (inside + outside);
            if bernoulli_kl(m, mid) <= target {
                inside = mid
            } else {
                outside = mid
            }
        }
        inside
    };
    let lower = if m == 0.0 || bernoulli_kl(m, 0.0) <= target {
        0.0
    } else {
        solve(m, 0.0)
    };
    let upper = if m == 1.0 || bernoulli_kl(m, 1.0) <= target {
        1.0
    } else {
        solve(m, 1.0)
    };
    (lower, upper)
}

/// One-sided limits for the mean of values in $\[0,B\]$ (e.g. importance-weighted hockey-stick
/// values): each side the better of the KL-Chernoff limit of the values divided by $B$ and the
/// empirical Bernstein limit, each at half the error probability (so that taking the better of
/// the two keeps the level).
pub fn kl_bernstein(
    acc: &MeanAcc,
    bound: f64,
    confidence: f64,
    seed: u64,
) -> Result<Estimate, StatsError> {
    let a = tail_probability(confidence, Sides::One)?;
    let half_level = 1.0 - a / 2.0;
    let eb = empirical_bernstein(acc, 0.0, bound, half_level, Sides::One, seed)?;
    let (kl_lo, kl_hi) = kl_chernoff_limits(acc.mean / bound, acc.n, a / 2.0);
    Ok(Estimate {
        mean: acc.mean,
        lower: eb.lower.max(kl_lo * bound),
        upper: eb.upper.min(kl_hi * bound),
        n: acc.n,
        confidence,
        sides: Sides::One,
        method: Method::KlBernstein,
        seed,
    })
}

/// One stratum of a stratified mean ([`stratified_lower`]): its exact weight $\pi_j$, the values
/// drawn in it (i.i.d., in $\[0,c_j\]$) and their bound $c_j$.
#[derive(Debug, Clone, Copy)]
pub struct Stratum<'a> {
    /// The stratum's probability $\pi_j$ (known exactly).
    pub weight: f64,
    /// The values drawn in the stratum.
    pub acc: &'a MeanAcc,
    /// Their bound $c_j$: every value lies in $\[0,c_j\]$.
    pub bound: f64,
}

/// A one-sided lower confidence limit for $\mu=\sum_j\pi_j\mu_j$ from independent samples of
/// each stratum (the stratified estimator $S=\sum_j\pi_j\bar Y_j$, $\bar Y_j$ the mean of
/// $n_j\ge2$ i.i.d. values in $\[0,c_j\]$ of mean $\mu_j$). With error $a$ it is the larger of two
/// limits, each at error $a/2$ (so the larger keeps the level):
///
/// * **Bernstein over the strata.** $S$ is a sum of independent terms $X_{ji}=\pi_jY_{ji}/n_j$
///   with $\mathbb EX_{ji}-X_{ji}\le b=\max_j\pi_jc_j/n_j$ and variance
///   $V=\sum_j\pi_j^2\sigma_j^2/n_j$, so Bernstein's inequality gives
///   $\Pr[S\le\mu-t]\le\exp\big(-t^2/(2V+2bt/3)\big)$; at error $a/4$,
///   $t=\frac{b\ell}3+\sqrt{(\frac{b\ell}3)^2+2\ell V}$ with $\ell=\ln(4/a)$. The unknown $\sigma_j$
///   are replaced by upper limits, Maurer & Pontil (2009, Thm 10):
///   $\sigma_j\le\sqrt{V_j}+c_j\sqrt{2\ln(1/\alpha)/(n_j-1)}$ with probability $1-\alpha$,
///   $V_j$ the unbiased sample variance, at $\alpha=a/(4m)$ for each of the $m$ strata (a union
///   bound: with probability $1-a/4$ all hold). The limit is $S-t$, valid with probability
///   $1-a/2$.
/// * **KL-Chernoff per stratum.** Each $\mu_j$ is at least its KL-Chernoff lower limit
///   ([`kl_chernoff_limits`] of $\bar Y_j/c_j$) at error $a/(2m)$; the limit is
///   $\sum_j\pi_j\times$ those (a union bound over the strata). Tight when a stratum's values are
///   rare and near-Bernoulli, where Bernstein's range term dominates.
///
/// One stratum is [`kl_bernstein`]'s case, its limit times $\pi_1$ (the same two limits, without
/// the variance bound: there the empirical Bernstein inequality covers it). An empty list gives 0 (no
/// stratum, no information: the conservative end).
pub fn stratified_lower(strata: &[Stratum], confidence: f64) -> Result<f64, StatsError> {
    let a = tail_probability(confidence, Sides::One)?;
    for s in strata {
        s.acc.check("a stratified limit", 2)?;
        if !(s.bound > 0.0 && s.bound.is_finite()) {
            return Err(StatsError::OutOfRange {
                value: s.bound,
                lo: f64::MIN_POSITIVE,
                hi: f64::MAX,
            });
        }
        if !(s.weight >= 0.0 && s.weight <= 1.0) {
            return Err(StatsError::OutOfRange {
                value: s.weight,
                lo: 0.0,
                hi: 1.0,
            });
        }
        for v in [s.acc.min, s.acc.max] {
            if v < 0.0 || v > s.bound {
                return Err(StatsError::OutOfRange {
                    value: v,
                    lo: 0.0,
                    hi: s.bound,
                });
            }
        }
    }
    if strata.is_empty() {
        return Ok(0.0);
    }
    if let [only] = strata {
        return Ok(only.weight * kl_bernstein(only.acc, only.bound, confidence, 0)?.lower);
    }
    let m = strata.len() as f64;
    let sum: f64 = strata.iter().map(|s| s.weight * s.acc.mean).sum();
    // Bernstein over the strata, the variances bounded above.
    let alpha = a / (4.0 * m);
    let (mut v, mut b) = (0.0, 0.0f64);
    for s in strata {
        let n = s.acc.n as f64;
        let sd = s.acc.variance().sqrt() + s.bound * (2.0 * (1.0 / alpha).ln() / (n - 1.0)).sqrt();
        v += s.weight * s.weight * sd * sd / n;
        b = b.max(s.weight * s.bound / n);
    }
    let l = (4.0 / a).ln();
    let t = b * l / 3.0 + ((b * l / 3.0).powi(2) + 2.0 * l * v).sqrt();
    let bernstein = sum - t;
    // KL-Chernoff per stratum, a union bound.
    let kl: f64 = strata
        .iter()
        .map(|s| {
            s.weight * s.bound * kl_chernoff_limits(s.acc.mean / s.bound, s.acc.n, a / (2.0 * m)).0
        })
        .sum();
    Ok(bernstein.max(kl).max(0.0))
}

/// Clopper–Pearson (exact binomial) interval for a proportion: with `a` the per-side error
/// probability, lower $=B^{-1}(a;k,n-k+1)$ (0 if $k=0$), upper $=B^{-1}(1-a;k+1,n-k)$ (1 if $k=n$).
pub fn clopper_pearson(
    count: CountAcc,
    confidence: f64,
    sides: Sides,
    seed: u64,
) -> Result<Estimate, StatsError> {
    let a = tail_probability(confidence, sides)?;
    let CountAcc {
        successes: k,
        trials: n,
    } = count;
    if n == 0 {
        return Err(StatsError::TooFewTrials {
            method: "a Clopper-Pearson interval",
            needed: 1,
            got: 0,
        });
    }
    if k > n {
        return Err(StatsError::Count {
            successes: k,
            trials: n,
        });
    }
    let (kf, nf) = (k as f64, n as f64);
    let lower = if k == 0 {
        0.0
    } else {
        Beta::new(kf, nf - kf + 1.0)
            .expect("positive shapes")
            .inverse_cdf(a)
    };
    let upper = if k == n {
        1.0
    } else {
        Beta::new(kf + 1.0, nf - kf)
            .expect("positive shapes")
            .inverse_cdf(1.0 - a)
    };
    Ok(Estimate {
        mean: kf / nf,
        lower,
        upper,
        n,
        confidence,
        sides,
        method: Method::ClopperPearson,
        seed,
    })
}

/// An exactly computed value, presented as a degenerate estimate.
pub fn exact(value: f64, seed: u64) -> Estimate {
    Estimate {
        mean: value,
        lower: value,
        upper: value,
        n: 0,
        confidence: 1.0,
        sides: Sides::Two,
        method: Method::Exact,
        seed,
    }
}

/// The largest value seen by `acc`, a [`Method::SampledMaximum`] over `acc.n` sampled
/// instances. With `lower = Some(l)`, `acc` holds the instances' upper ends $v_i+e_i$ and `l`
/// their lower ends $v_i-e_i$ ($e_i$ a bound on the numerical error of $v_i$): then
/// $\max_i(v_i-e_i)\le\max_i v_i\le\max_i(v_i+e_i)$ is the interval and `mean` its midpoint.
pub fn maximum(acc: &MeanAcc, lower: Option<&MeanAcc>, seed: u64) -> Result<Estimate, StatsError> {
    acc.check("a maximum", 1)?;
    let (lo, hi) = match lower {
        None => (acc.max, acc.max),
        Some(l) => {
            l.check("a maximum", 1)?;
            if l.n != acc.n || l.max > acc.max {
                return Err(StatsError::Bracket {
                    lo: l.max,
                    hi: acc.max,
                });
            }
            (l.max, acc.max)
        }
    };
    Ok(Estimate {
        n: acc.n,
        method: Method::SampledMaximum,
        ..bracket(lo, hi, seed)?
    })
}

#[cfg(test)]
mod tests {

    /// The stratified limit covers: three strata of Bernoulli values (means known), 400
    /// repetitions at level 0.9 — the limit is above the true mean in at most 10% of them
    /// (it is conservative: in fact in none); the mutant without the deviation term (the
    /// stratified mean itself) is above it in about half.
    #[test]
    fn stratified_limit_covers_and_the_mean_alone_does_not() {
        use crate::rng::StreamKey;
        use rand::RngExt;
        let strata = [
            (0.9, 0.001, 400u64, 1.0),
            (0.09, 0.05, 300, 2.0),
            (0.01, 0.4, 100, 1.0),
        ];
        let truth: f64 = strata.iter().map(|(w, p, _, c)| w * p * c).sum();
        let (mut over, mut over_mutant) = (0, 0);
        for rep in 0..400u64 {
            let accs: Vec<MeanAcc> = strata
                .iter()
                .enumerate()
                .map(|(j, (_, p, n, c))| {
                    let mut rng = StreamKey::new(rep, &["strat", &j.to_string()]).trial(0);
                    let mut acc = MeanAcc::new();
                    for _ in 0..*n {
                        acc.push(if rng.random_bool(*p) { *c } else { 0.0 });
                    }
                    acc
                })
                .collect();
            let parts: Vec<Stratum> = strata
                .iter()
                .zip(&accs)
                .map(|((w, _, _, c), acc)| Stratum {
                    weight: *w,
                    acc,
                    bound: *c,
                })
                .collect();
            let lower = stratified_lower(&parts, 0.9).unwrap();
            let mean: f64 = parts.iter().map(|s| s.weight * s.acc.mean).sum();
            assert!(lower <= mean);
            over += usize::from(lower > truth);
            over_mutant += usize::from(mean > truth);
        }
        assert!(over <= 40, "{over} of 400 limits above the truth");
        assert!(over_mutant > 100, "the mutant: {over_mutant} of 400");
        // Bad input is an error, not a panic or a NaN.
        let acc = MeanAcc::new();
        let bad = [Stratum {
            weight: 0.5,
            acc: &acc,
            bound: 1.0,
        }];
        assert!(stratified_lower(&bad, 0.9).is_err());
        let mut acc = MeanAcc::new();
        acc.push(3.0);
        acc.push(0.0);
        let bad = [Stratum {
            weight: 0.5,
            acc: &acc,
            bound: 1.0,
        }];
        assert!(stratified_lower(&bad, 0.9).is_err());
        assert_eq!(stratified_lower(&[], 0.9).unwrap(), 0.0);
    }

    use super::*;
    use approx::assert_relative_eq;

    fn acc_of(xs: &[f64]) -> MeanAcc {
        let mut a = MeanAcc::new();
        xs.iter().for_each(|x| a.push(*x));
        a
    }

    /// An infinite computed value is the point [v, v], not [NaN, inf] (found when NaN estimates
    /// became errors: contraction.main.step.monotone's mutant divides by an exact zero).
    #[test]
    fn an_infinite_computed_value_has_no_nan_end() {
        let e = computed(f64::INFINITY, 0.0, 1);
        assert_eq!((e.lower, e.upper), (f64::INFINITY, f64::INFINITY));
        let e = computed(f64::INFINITY, f64::INFINITY, 1);
        assert_eq!((e.lower, e.upper), (f64::NEG_INFINITY, f64::INFINITY));
        let e = computed(f64::NEG_INFINITY, 1.0, 1);
        assert_eq!((e.lower, e.upper), (f64::NEG_INFINITY, f64::NEG_INFINITY));
        let e = computed(2.0, f64::INFINITY, 1);
        assert_eq!((e.lower, e.upper), (f64::NEG_INFINITY, f64::INFINITY));
    }

    #[test]
    fn student_t_reference() {
        // x = 1..10: mean 5.5, s = 3.0276504, t_{9,0.975} = 2.2621572.
        let xs: Vec<f64> = (1..=10).map(f64::from).collect();
        let e = student_t(&acc_of(&xs), 0.95, Sides::Two, 1).unwrap();
        assert_relative_eq!(
            e.upper - e.mean,
            2.2621572 * 3.0276504 / 10f64.sqrt(),
            max_relative = 1e-6
        );
        let one = student_t(&acc_of(&xs), 0.95, Sides::One, 1).unwrap();
        // t_{9,0.95} = 1.8331129
        assert_relative_eq!(
            one.upper - one.mean,
            1.8331129 * 3.0276504 / 10f64.sqrt(),
            max_relative = 1e-6
        );
    }

    #[test]
    fn clopper_pearson_reference() {
        // k = 3, n = 10, two-sided 95%: [0.0667395, 0.6524529] (standard tables).
        let e = clopper_pearson(
            CountAcc {
                successes: 3,
                trials: 10,
            },
            0.95,
            Sides::Two,
            1,
        )
        .unwrap();
        assert_relative_eq!(e.lower, 0.0667395, max_relative = 1e-5);
        assert_relative_eq!(e.upper, 0.6524529, max_relative = 1e-5);
        let zero = clopper_pearson(
            CountAcc {
                successes: 0,
                trials: 10,
            },
            0.95,
            Sides::One,
            1,
        )
        .unwrap();
        assert_eq!(zero.lower, 0.0);
        // one-sided upper for k = 0: 1 - 0.05^(1/10)
        assert_relative_eq!(zero.upper, 1.0 - 0.05f64.powf(0.1), max_relative = 1e-9);
    }

    #[test]
    fn errors_are_reported() {
        assert_eq!(
            student_t(&acc_of(&[1.0]), 0.9, Sides::One, 0),
            Err(StatsError::TooFewTrials {
                method: "a Student t interval",
                needed: 2,
                got: 1
            })
        );
        assert_eq!(
            student_t(&acc_of(&[1.0, f64::NAN, 2.0]), 0.9, Sides::One, 0),
            Err(StatsError::NonFinite(1))
        );
        assert_eq!(
            student_t(&acc_of(&[1.0, 2.0]), 1.0, Sides::One, 0),
            Err(StatsError::Confidence(1.0))
        );
        assert!(matches!(
            empirical_bernstein(&acc_of(&[1.0, 2.0]), 0.0, 1.5, 0.9, Sides::One, 0),
            Err(StatsError::OutOfRange { .. })
        ));
    }

    #[test]
    fn log_slope_recovers_a_power_law() {
        // Means 3 x^-1 with small noise: slope -1, interval shrinking with n.
        let xs = [100.0, 200.0, 400.0, 800.0];
        let accs: Vec<MeanAcc> = xs
            .iter()
            .map(|x| {
                let mut acc = MeanAcc::new();
                for k in 0..1000 {
                    acc.push(3.0 / x * (1.0 + 0.01 * ((k % 7) as f64 - 3.0)));
                }
                acc
            })
            .collect();
        let e = log_slope(&xs, &accs, 0.99, Sides::Two, 1).unwrap();
        assert!((e.mean + 1.0).abs() < 1e-9, "{e:?}");
        assert!(e.lower < -1.0 && e.upper > -1.0 && e.upper - e.lower < 0.01);
        assert!(log_slope(&xs[..1], &accs[..1], 0.99, Sides::Two, 1).is_err());
        let mut negative = accs.clone();
        negative[0] = MeanAcc::new();
        negative[0].push(-1.0);
        negative[0].push(-2.0);
        assert!(log_slope(&xs, &negative, 0.99, Sides::Two, 1).is_err());
    }

    #[test]
    fn paired_log_slope_uses_the_covariance() {
        // y_t = (c_t / 10, c_t / 20, c_t / 40) with c_t shared by the design points: the slope
        // is exactly -1 in every trial, so the paired interval has zero width, while the
        // independent-points formula sees the spread of c_t at every point.
        let xs = [10.0, 20.0, 40.0];
        let mut acc = VectorAcc::new(3);
        let mut per_point = vec![MeanAcc::new(); 3];
        for t in 0..200 {
            let c = 1.0 + 0.5 * ((t % 9) as f64 - 4.0) / 4.0;
            let y: Vec<f64> = xs.iter().map(|x| c / x).collect();
            acc.push(&y);
            per_point.iter_mut().zip(&y).for_each(|(a, v)| a.push(*v));
        }
        let paired = paired_log_slope(&xs, &acc, 0.99, Sides::Two, 1).unwrap();
        let independent = log_slope(&xs, &per_point, 0.99, Sides::Two, 1).unwrap();
        assert!((paired.mean + 1.0).abs() < 1e-12, "{paired:?}");
        assert!((paired.mean - independent.mean).abs() < 1e-12);
        assert!(paired.upper - paired.lower < 1e-9, "{paired:?}");
        assert!(
            independent.upper - independent.lower > 0.05,
            "{independent:?}"
        );
        // Anti-correlated points: the paired interval is the wider one.
        let mut anti = VectorAcc::new(2);
        let mut anti_points = vec![MeanAcc::new(); 2];
        for t in 0..200 {
            let e = 0.2 * ((t % 5) as f64 - 2.0) / 2.0;
            let y = [1.0 + e, 0.5 - 0.5 * e];
            anti.push(&y);
            anti_points.iter_mut().zip(&y).for_each(|(a, v)| a.push(*v));
        }
        let p = paired_log_slope(&[1.0, 2.0], &anti, 0.99, Sides::Two, 1).unwrap();
        let i = log_slope(&[1.0, 2.0], &anti_points, 0.99, Sides::Two, 1).unwrap();
        assert!(p.upper - p.lower > 1.3 * (i.upper - i.lower), "{p:?} {i:?}");
        assert!(paired_log_slope(&xs[..2], &acc, 0.99, Sides::Two, 1).is_err());
        let mut bad = VectorAcc::new(2);
        bad.push(&[1.0, f64::NAN]);
        bad.push(&[1.0, 2.0]);
        bad.push(&[1.0, 2.0]);
        assert_eq!(
            paired_log_slope(&[1.0, 2.0], &bad, 0.9, Sides::One, 1),
            Err(StatsError::NonFinite(1))
        );
    }

    #[test]
    fn vector_acc_merges_like_one_pass() {
        let ys: Vec<[f64; 2]> = (0..37)
            .map(|t| [(t as f64).sin(), (t as f64 * 0.7).cos() + t as f64 / 10.0])
            .collect();
        let mut whole = VectorAcc::new(2);
        ys.iter().for_each(|y| whole.push(y));
        let (mut a, mut b) = (VectorAcc::new(2), VectorAcc::new(2));
        ys[..11].iter().for_each(|y| a.push(y));
        ys[11..].iter().for_each(|y| b.push(y));
        a.merge(b);
        assert_eq!(a.n, whole.n);
        for (x, y) in a
            .mean
            .iter()
            .zip(&whole.mean)
            .chain(a.comoment.iter().zip(&whole.comoment))
        {
            assert_relative_eq!(*x, *y, max_relative = 1e-12, epsilon = 1e-14);
        }
    }

    #[test]
    fn brackets_and_sampled_maxima() {
        let b = bracket(1.0, 2.0, 3).unwrap();
        assert_eq!(
            (b.lower, b.mean, b.upper, b.method),
            (1.0, 1.5, 2.0, Method::Bracket)
        );
        assert!(bracket(2.0, 1.0, 3).is_err());
        assert!(bracket(f64::NAN, 1.0, 3).is_err());
        assert_eq!(bracket(1.0, f64::INFINITY, 3).unwrap().mean, f64::INFINITY);
        let (hi, lo) = (acc_of(&[1.0, 3.0, 2.5]), acc_of(&[0.9, 2.9, 2.4]));
        let m = maximum(&hi, Some(&lo), 3).unwrap();
        assert_eq!(
            (m.lower, m.upper, m.n, m.method),
            (2.9, 3.0, 3, Method::SampledMaximum)
        );
        let plain = maximum(&hi, None, 3).unwrap();
        assert_eq!((plain.lower, plain.upper), (3.0, 3.0));
        let r = refinement_estimate(1.0, 1.25, 0);
        assert_eq!(
            (r.lower, r.upper, r.method),
            (0.5, 1.5, Method::RefinementEstimate)
        );
    }
}
