//! Exponentially tilted FFT composition with a certified floating-point error bound.
//!
//! A composed PLD's far tail (the losses that decide $\epsilon$ at $\delta\le10^{-9}$) holds
//! entries of $10^{-17}$ and less, while an FFT's round-off is relative to the *largest*
//! entry: $\approx T\gamma_n\lVert p\rVert_2$ per entry for a $T$-fold power. Summed over the
//! $10^5$–$10^6$ entries above $\epsilon$, that round-off is as large as $\delta$ itself, and
//! clamping the negative part at 0 makes it one-sided: the optimistic $\epsilon$ came out above
//! the true one (issue 20). The cure is to compute where the tail is not small:
//!
//! **Tilting.** For $\theta\ge0$ let $p'_k=p_ke^{\theta\ell_k}/M$, $M=\sum_kp_ke^{\theta\ell_k}$.
//! Convolution commutes with tilting, $(p^{\ast T})_s=(p'^{\ast T})_s\thinspace M^Te^{-\theta\ell_s}$, and the
//! tilted composition is centred at $T\Lambda'(\theta)$ ($\Lambda=\ln M$), so choosing
//! $\theta$ with $T\Lambda'(\theta)$ near the loss of interest makes the entries there the large
//! ones, with relative error $\approx T\gamma_n$.
//!
//! **The bound.** Every computed PLD carries an envelope ([`RoundOff`]):
//! $|p_s-\hat p_s|\le\rho\thinspace\hat p_s+e^{a-\theta\ell_s}$. In the tilted domain:
//! - *input*: $|p'_k-\tilde p_k|\le\rho_a\tilde p_k+\eta_a$ (the input's own envelope, the
//!   rounding of $\exp$ and of the logarithms, $2^{-1074}$ for underflow);
//! - *exact composition of perturbed input* (telescoping
//!   $X^{\ast T}-Y^{\ast T}=\sum_jX^{\ast j}\ast(X-Y)\ast Y^{\ast(T-1-j)}$, all terms non-negative, a function bounded by
//!   $\eta$ convolved with $g\ge0$ is bounded by $\eta\lVert g\rVert_1$):
//!   $|p'^{\ast T}-\tilde p^{\ast T}|\le((1+\rho_a)^T-1)\tilde p^{\ast T}+T\eta_aB^{T-1}$,
//!   $B=(1+\rho_a)\lVert\tilde p\rVert_1+w\eta_a$;
//! - *FFT*: for the radix-$2^k$ FFT with accurate twiddles, $\lVert\hat y-y\rVert_2\le
//!   \gamma_n\lVert y\rVert_2$, $\gamma_n=\log_2 n\cdot\eta$ (Higham 2002, Thm. 24.2, with
//!   $\eta=\mu+\gamma_4(\sqrt2+\mu)\approx6u$); we take $\eta=20u$ for rustfft's mixed radices.
//!   The spectrum's error $e$ propagates through the power as $|\hat y^T-y^T|\le T|e|Y^{T-1}$,
//!   $Y=\lVert\tilde p\rVert_1+\lVert e\rVert_2$; `powu` (repeated squaring) adds
//!   $(3(T-1)+4)u$ relative; spectral entries below $e^{-700}$ are set to 0 (an error of $e^{-700}$ each); the
//!   inverse FFT adds $\gamma_n$ again; Parseval and Young ($\lVert f^{\ast T}\rVert_2\le
//!   \lVert f\rVert_2\lVert f\rVert_1^{T-1}$) turn spectral 2-norms into a bound $R$ on the 2-norm
//!   of the output's error (so on every entry);
//! - *untilting* multiplies by $e^{T\ln M-\theta\ell_s}$, exactly in the envelope's exponent and
//!   with relative rounding $3u(745+|T\ln M|+\theta\max|\ell|)$ in the values.
//!
//! The bound covers round-off in the safe direction for both roundings; it is second order
//! where the tilt is right and grows like $e^{T(\Lambda(\theta)-\Lambda(\theta^\ast))}$ away from
//! it (the bracket widens there; it stays a bracket).

use super::grid::{Pld, RoundOff, Rounding};
use rustfft::num_complex::Complex;
use rustfft::{Fft, FftDirection, FftPlanner};
use std::sync::{Arc, LazyLock, Mutex};

/// Unit round-off of `f64`.
const U: f64 = f64::EPSILON / 2.0;

/// $\gamma_n=\log_2n\cdot20u$: the relative 2-norm error of one FFT of length $n$.
fn fft_gamma(n: usize) -> f64 {
    (n.max(2) as f64).log2().ceil() * 20.0 * U
}

/// `pld`'s finite part tilted by $\theta$: $\tilde p_k\approx p_ke^{\theta\ell_k-\ln M}$.
pub(crate) struct Tilted {
    pub values: Vec<f64>,
    /// $\ln M$ (the exact tilt uses this number).
    pub ln_norm: f64,
    /// $|p'_k-\tilde p_k|\le$ `relative`$\cdot\tilde p_k+a_k$, $\lVert a\rVert_2\le$ `absolute`.
    pub relative: f64,
    pub absolute: f64,
}

impl Tilted {
    /// $\lVert\tilde p\rVert_1$, inflated for its own rounding.
    fn l1(&self) -> f64 {
        self.values.iter().sum::<f64>() * (1.0 + (self.values.len() as f64 + 2.0) * U)
    }

    /// $\lVert\tilde p\rVert_2$, inflated for its own rounding.
    fn l2(&self) -> f64 {
        (self.values.iter().map(|v| v * v).sum::<f64>()).sqrt()
            * (1.0 + (self.values.len() as f64 + 4.0) * U)
    }

    /// The bound $B$ on the 1-norm of the exact tilted input and of the perturbed one
    /// ($\lVert a\rVert_1\le\sqrt w\lVert a\rVert_2$).
    fn mass_bound(&self) -> f64 {
        (1.0 + self.relative) * self.l1() + (self.values.len() as f64).sqrt() * self.absolute
    }
}

fn loss(pld: &Pld, i: usize) -> f64 {
    (pld.offset + i as i64) as f64 * pld.interval
}

/// Tilts `pld`'s finite part by $\theta$, carrying its envelope into the tilted domain.
pub(crate) fn tilt(pld: &Pld, theta: f64) -> Tilted {
    let logs: Vec<f64> = pld
        .pmf
        .iter()
        .enumerate()
        .map(|(i, p)| p.ln() + theta * loss(pld, i))
        .collect();
    let max = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let max = if max.is_finite() { max } else { 0.0 };
    // Neumaier summation of e^{a_k - max}: ln M to a few u.
    let (mut sum, mut comp) = (0.0f64, 0.0f64);
    for a in &logs {
        let x = (a - max).exp();
        let t = sum + x;
        comp += if sum.abs() >= x.abs() {
            (sum - t) + x
        } else {
            (x - t) + sum
        };
        sum = t;
    }
    let ln_norm = max + (sum + comp).ln();
    let values: Vec<f64> = logs.iter().map(|a| (a - ln_norm).exp()).collect();
    let max_loss = loss(pld, 0).abs().max(loss(pld, pld.pmf.len() - 1).abs());
    // exp(x) with x = ln p + θℓ − ln M carrying u(|ln p| + |θℓ| + |ln M|) of absolute error.
    let rounding = 3.0 * U * (745.0 + theta.abs() * max_loss + ln_norm.abs()) + 3.0 * U;
    let relative = (pld.roundoff.relative + rounding) / (1.0 - rounding);
    // The input's absolute envelope a_k (with ||a_k e^{θ_in ℓ_k}||_2 <= e^a), tilted: its
    // 2-norm is at most e^{a − ln M} max_k e^{(θ − θ_in)ℓ_k}, an end of the support.
    let r = &pld.roundoff;
    let absolute = if r.ln_scale == f64::NEG_INFINITY {
        0.0
    } else {
        let at = |l: f64| r.ln_scale + (theta - r.tilt) * l - ln_norm;
        (at(loss(pld, 0)).max(at(loss(pld, pld.pmf.len() - 1))) + 1e-9).exp() * (1.0 + relative)
    };
    Tilted {
        values,
        ln_norm,
        relative,
        absolute: absolute + 1e-300 * (pld.pmf.len() as f64).sqrt(),
    }
}

/// The longest transform whose plan is kept: a plan holds its twiddle factors (16 bytes a
/// point), so the plans kept (every power of two up to it, both directions) are about 60 MB
/// for the process.
const KEPT_PLAN_MOST: usize = 1 << 20;

/// The process's planner: planning a length computes its twiddle factors (a sine and a cosine
/// a point), as much work as the transform itself, so a length is planned once. Locked only
/// while planning.
static PLANNER: LazyLock<Mutex<FftPlanner<f64>>> = LazyLock::new(|| Mutex::new(FftPlanner::new()));

/// The plan of a transform of `n` points, `n` a power of two: the kept plan up to
/// [`KEPT_PLAN_MOST`] points, a fresh one past it. For a power of two the plan is a function
/// of the length alone (a base transform and radix steps, whatever was planned before), so
/// the values do not depend on which.
fn plan(n: usize, direction: FftDirection) -> Arc<dyn Fft<f64>> {
    debug_assert!(n.is_power_of_two(), "{n}");
    if n <= KEPT_PLAN_MOST {
        if let Ok(mut p) = PLANNER.lock() {
            return p.plan_fft(n, direction);
        }
    }
    FftPlanner::new().plan_fft(n, direction)
}

/// The computed circular `steps`-fold power of `input` on `n` points and a bound $R$ on the
/// 2-norm of its error against the exact circular power of `input`'s values.
pub(crate) fn power(input: &Tilted, steps: u32, n: usize) -> (Vec<f64>, f64) {
    let mut buf: Vec<Complex<f64>> = vec![Complex::new(0.0, 0.0); n];
    for (b, p) in buf.iter_mut().zip(&input.values) {
        *b = Complex::new(*p, 0.0);
    }
    plan(n, FftDirection::Forward).process(&mut buf);
    let tf = steps as f64;
    // |z|^T below e^-700 contributes nothing representable: skip the power (most of the
    // spectrum of a smooth pmf).
    let negligible = (-1400.0 / tf).exp();
    buf.iter_mut().for_each(|z| {
        *z = if z.norm_sqr() < negligible {
            Complex::new(0.0, 0.0)
        } else {
            z.powu(steps)
        }
    });
    plan(n, FftDirection::Inverse).process(&mut buf);
    let scale = 1.0 / n as f64;
    let out: Vec<f64> = buf.iter().map(|z| z.re * scale).collect();

    let gamma = fft_gamma(n);
    let (l1, l2, sqrt_n) = (input.l1(), input.l2(), (n as f64).sqrt());
    let e_fwd = gamma * sqrt_n * l2 * (1.0 + gamma); // ||ŷ − y||_2
    let y = l1 + e_fwd; // |ŷ_k|, |y_k| <= y
    let y_pow = ((tf - 1.0) * y.ln()).exp(); // y^{T−1}
    // `powu` squares repeatedly, and each squaring doubles the relative error so far: up to
    // (T − 1) complex products of relative error sqrt(2)·γ_2 < 3u each.
    let pow_rel = (3.0 * (tf - 1.0) + 4.0) * U;
    let w_norm = sqrt_n * l2 * l1.powf(tf - 1.0); // ||y^T||_2 (Parseval + Young)
    let spectral = tf * e_fwd * y_pow * (1.0 + pow_rel)
        + pow_rel * (w_norm + tf * e_fwd * y_pow)
        + sqrt_n * (-700f64).exp();
    let bound = ((spectral * (1.0 + gamma) + gamma * w_norm) / sqrt_n) * (1.0 + 4.0 * U)
        + 2.0 * U * l2 * l1.powf(tf - 1.0);
    (out, bound)
}

/// The computed linear convolution of two tilted inputs and a bound on the 2-norm of its error
/// against the exact convolution of their values.
pub(crate) fn convolution(a: &Tilted, b: &Tilted) -> (Vec<f64>, f64) {
    let len = a.values.len() + b.values.len() - 1;
    let n = len.next_power_of_two();
    let forward = plan(n, FftDirection::Forward);
    let spectrum = |values: &[f64]| {
        let mut buf = vec![Complex::new(0.0, 0.0); n];
        buf.iter_mut()
            .zip(values)
            .for_each(|(z, p)| *z = Complex::new(*p, 0.0));
        forward.process(&mut buf);
        buf
    };
    let (sa, sb) = (spectrum(&a.values), spectrum(&b.values));
    let mut buf: Vec<Complex<f64>> = sa.iter().zip(&sb).map(|(x, y)| x * y).collect();
    plan(n, FftDirection::Inverse).process(&mut buf);
    let scale = 1.0 / n as f64;
    let out: Vec<f64> = buf[..len].iter().map(|z| z.re * scale).collect();

    let gamma = fft_gamma(n);
    let sqrt_n = (n as f64).sqrt();
    let (a1, a2, b1, b2) = (a.l1(), a.l2(), b.l1(), b.l2());
    let (ea, eb) = (
        gamma * sqrt_n * a2 * (1.0 + gamma),
        gamma * sqrt_n * b2 * (1.0 + gamma),
    );
    let w_norm = sqrt_n * (a2 * b1).min(b2 * a1); // ||y_a y_b||_2 <= ||y_a||_2 max|y_b|
    let spectral = ea * (b1 + eb) + (a1 + ea) * eb + 3.0 * U * (w_norm + ea * (b1 + eb));
    let bound = ((spectral * (1.0 + gamma) + gamma * w_norm) / sqrt_n) * (1.0 + 4.0 * U)
        + 2.0 * U * (a2 * b1).min(b2 * a1);
    (out, bound)
}

/// The error of the exact composition of perturbed tilted inputs: `steps` copies of `input`.
/// Returns (relative, absolute) with $|p'^{\ast T}-\tilde p^{\ast T}|\le$ relative$\cdot\tilde
/// p^{\ast T}+a$, $\lVert a\rVert_2\le$ absolute (telescoping, Young: $\lVert f\ast g\rVert_2\le
/// \lVert f\rVert_2\lVert g\rVert_1$).
pub(crate) fn propagated_power(input: &Tilted, steps: u64) -> (f64, f64) {
    let tf = steps as f64;
    let relative = (tf * input.relative.ln_1p()).exp_m1();
    let absolute = tf * input.absolute * ((tf - 1.0) * input.mass_bound().ln()).exp();
    (relative, absolute)
}

/// The same for the convolution of two perturbed tilted inputs.
pub(crate) fn propagated_convolution(a: &Tilted, b: &Tilted) -> (f64, f64) {
    let relative = (1.0 + a.relative) * (1.0 + b.relative) - 1.0;
    let absolute = a.absolute * b.mass_bound() + b.absolute * a.mass_bound();
    (relative, absolute)
}

/// What [`untilt`] needs besides the computed tilted values.
pub(crate) struct Untilt {
    pub interval: f64,
    pub offset: i64,
    /// $\ln$ of the composed tilt's normaliser ($T\ln M$, or a sum of them).
    pub ln_norm: f64,
    pub theta: f64,
    /// The tilted-domain error: relative to the computed values, and the 2-norm of the
    /// absolute part over the output.
    pub relative: f64,
    pub absolute: f64,
    pub infinity_mass: f64,
    pub alias_mass: f64,
    pub rounding: Rounding,
}

/// The PLD $\hat p_s=\hat c_se^{\ln N-\theta\ell_s}$ (clamped to $[0,1]$) with its envelope.
pub(crate) fn untilt(values: &[f64], u: Untilt) -> Pld {
    let max_loss = (u.offset as f64 * u.interval)
        .abs()
        .max(((u.offset + values.len() as i64) as f64 * u.interval).abs());
    let rho_u = 3.0 * U * (745.0 + u.ln_norm.abs() + u.theta.abs() * max_loss) + 3.0 * U;
    let pmf: Vec<f64> = values
        .iter()
        .enumerate()
        .map(|(i, c)| {
            if *c <= 0.0 {
                0.0
            } else {
                let l = (u.offset + i as i64) as f64 * u.interval;
                (c.ln() + u.ln_norm - u.theta * l).exp().min(1.0)
            }
        })
        .collect();
    // |true − ĉ| <= rel ĉ + abs in the tilted domain; with ĉ e^{…} = p̂ (1 ± ρ_u):
    let relative = (u.relative + rho_u) / (1.0 - rho_u);
    let ln_abs = u.absolute.ln() + u.ln_norm;
    let ln_scale = ln_abs + 4.0 * U * (u.absolute.ln().abs() + u.ln_norm.abs()) + 1e-12;
    Pld {
        interval: u.interval,
        offset: u.offset,
        pmf,
        infinity_mass: u.infinity_mass,
        alias_mass: u.alias_mass,
        rounding: u.rounding,
        roundoff: RoundOff {
            relative,
            ln_scale,
            tilt: u.theta,
        },
    }
}
