//! The exponential tilt of the privacy loss of the remove pair: importance sampling of the
//! tail of $L=\sum_t\ell(x_t)$ from the law $G\propto P\thinspace e^{\theta L}$, $\theta$ a
//! positive integer.
//!
//! For the remove pair one step has $p=(1-q)\varphi_0+q\varphi_1$ and $q_0=\varphi_0$
//! ($\varphi_\mu$ the density of $\mathcal N(\mu,\sigma^2)$), and $p/q_0=1-q+q\thinspace r$ with
//! $r(x)=e^{(2x-1)/(2\sigma^2)}$. Completing the square,
//! $\varphi_\mu(x)\thinspace r(x)^j=\varphi_{\mu+j}(x)\thinspace e^{(j^2+(2\mu-1)j)/(2\sigma^2)}$, so for an
//! integer $n$ the tilted class
//! $$\varphi_\mu\thinspace(p/q_0)^n=\sum_{j=0}^n\binom nj(1-q)^{n-j}q^j
//! e^{(j^2+(2\mu-1)j)/(2\sigma^2)}\thinspace\varphi_{\mu+j}$$
//! is a finite mixture of Gaussians: it is sampled exactly, and its mass $m$ is a finite sum.
//! The whole step law tilted by $e^{\theta\ell}$ is $p\thinspace(p/q_0)^\theta=\varphi_0\thinspace(p/q_0)^{\theta+1}$
//! ($\mu=0$, $n=\theta+1$; $m$ is the Rényi moment $\mathbb E_P[(p/q_0)^\theta]$); a step known
//! to draw the record ($\varphi_1$) or not ($\varphi_0$) is tilted with $n=\theta$. Either way
//! the density ratio of one output is $m\thinspace e^{-\theta\ell(x)}$, so a path of $T$ steps
//! has
//! $$\frac{dP}{dG}=e^{\sum_cn_c\ln m_c-\theta L},\qquad
//! w\thinspace(1-e^{\epsilon-L})_+\le e^{\sum_cn_c\ln m_c-\theta\epsilon}\frac{\theta^\theta}{(\theta+1)^{\theta+1}}$$
//! ($n_c$ outputs of class $c$; the maximum of $(1-e^{\epsilon-L})e^{-\theta L}$ over
//! $L\ge\epsilon$): every weighted value is below the Chernoff (Rényi) bound on $\delta(\epsilon)$,
//! so the relative variance is at most that bound over $\delta$ — the classical efficient
//! tilt of a sum of independent terms (Sadowsky and Bucklew 1990), with $\theta$ chosen to
//! minimise the bound.
//!
//! **Floating point** is on the conservative side: component $j$ is drawn with probability
//! exactly $N_j/2^{53}$ (integer counts rounded down, the rest given to the largest), and the weight is lowered by a bound on the error of its
//! logarithm (the masses' logarithms, the drawn probabilities against the exact ones, and the
//! summed loss): the weight used is at most the exact $dP/dG$ of the law sampled.

use crate::privacy_loss::{LossPair, log_add_exp, log_sum_exp};
use crate::rng::TrialRng;
use rand::RngExt;
use rand_distr::{Distribution, StandardNormal};

/// $2^{-52}$, the spacing of doubles at 1.
const ULP: f64 = f64::EPSILON;

/// One class of outputs, $\mathcal N(\mu,\sigma^2)$, tilted by $(p/q_0)^n$: a mixture of
/// $\mathcal N(\mu+j,\sigma^2)$, $j=0,\dots,n$ (module docs).
#[derive(Debug, Clone)]
pub struct TiltedClass {
    mean: f64,
    sigma: f64,
    /// Cumulative integer counts out of $2^{53}$ of the drawn components.
    cumulative: Vec<u64>,
    /// $\ln m$, the mass of the tilted class.
    log_mass: f64,
    /// A bound on $|\ln(\text{drawn law}/\text{exact tilted law})|$ plus the error of `log_mass`:
    /// the most one output's log weight can be off by.
    log_error: f64,
}

impl TiltedClass {
    /// The class $\mathcal N(\mu,\sigma^2)$ tilted by $(p/q_0)^n$ at rate `q` ∈ (0, 1] and
    /// noise multiplier `sigma` > 0.
    pub fn new(mean: f64, power: u32, q: f64, sigma: f64) -> TiltedClass {
        let (logs, magnitude) = class_log_weights(mean, power, q, sigma);
        let (cumulative, log_mass, log_error) = drawn_mixture(&logs, power as f64 + 6.0, magnitude);
        TiltedClass {
            mean,
            sigma,
            cumulative,
            log_mass,
            log_error,
        }
    }

    /// $\ln m$: the log of the tilted class's mass.
    pub fn log_mass(&self) -> f64 {
        self.log_mass
    }

    /// $\ln m$ of the class [`TiltedClass::new`] builds from the same arguments (the same
    /// value), without its sampler: what a search over $\theta$ needs.
    pub fn log_mass_of(mean: f64, power: u32, q: f64, sigma: f64) -> f64 {
        log_sum_exp(class_log_weights(mean, power, q, sigma).0)
    }

    /// One output from the tilted class (a component, then its Gaussian).
    pub fn sample(&self, rng: &mut TrialRng) -> f64 {
        let j = draw_component(&self.cumulative, rng);
        let noise: f64 = StandardNormal.sample(rng);
        self.mean + j as f64 + self.sigma * noise
    }
}

/// The logarithms of the unnormalised weights $\binom nj(1-q)^{n-j}q^j
/// e^{(j^2+(2\mu-1)j)/(2\sigma^2)}$, $j=0,\dots,n$, of the class $\varphi_\mu(p/q_0)^n$
/// (module docs), and the sum of the magnitudes of their parts (each part is rounded once,
/// and the sum once per part).
fn class_log_weights(mean: f64, power: u32, q: f64, sigma: f64) -> (Vec<f64>, f64) {
    let s2 = 2.0 * sigma * sigma;
    let (ln_keep, ln_q) = ((-q).ln_1p(), q.ln());
    let mut logs = Vec::with_capacity(power as usize + 1);
    let mut magnitude: f64 = 0.0;
    let mut ln_choose = 0.0f64;
    let mut choose_magnitude = 0.0f64;
    for j in 0..=power {
        if j > 0 {
            let f = ((power - j + 1) as f64 / j as f64).ln();
            ln_choose += f;
            choose_magnitude += f.abs();
        }
        let jf = j as f64;
        // A factor with exponent 0 is 1 (also at q = 1, where ln(1 - q) is -inf).
        let power_of = |k: u32, ln: f64| if k == 0 { 0.0 } else { k as f64 * ln };
        let parts = [
            ln_choose,
            power_of(power - j, ln_keep),
            power_of(j, ln_q),
            (jf * jf + (2.0 * mean - 1.0) * jf) / s2,
        ];
        let v: f64 = parts.iter().sum();
        if v.is_finite() {
            magnitude =
                magnitude.max(choose_magnitude + parts[1..].iter().map(|p| p.abs()).sum::<f64>());
        }
        logs.push(v);
    }
    (logs, magnitude)
}

/// A component index drawn with probability (its count)/$2^{53}$.
fn draw_component(cumulative: &[u64], rng: &mut TrialRng) -> usize {
    let u = rng.random::<u64>() >> 11;
    cumulative.partition_point(|c| *c <= u)
}

/// A finite mixture given the logarithms of its unnormalised weights (each the sum of at most
/// `roundings` rounded terms of total magnitude `magnitude`): the cumulative integer counts
/// out of $2^{53}$ it is drawn with, $\ln m$ ($m$ the sum of the weights), and a bound on
/// $|\ln(\text{drawn law}/\text{exact law})|$ plus the error of $\ln m$ (module docs).
fn drawn_mixture(logs: &[f64], roundings: f64, magnitude: f64) -> (Vec<u64>, f64, f64) {
    let top = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let log_mass = log_sum_exp(logs.iter().copied());
    // Each log weight: at most `roundings` roundings of parts of total size `magnitude` (and
    // one unit each, for logarithms near 0); the log-sum-exp: one per weight more, relative to
    // the largest argument's size. A factor 4 of margin.
    let spread = logs
        .iter()
        .filter(|l| l.is_finite())
        .map(|l| (l - top).abs())
        .fold(0.0, f64::max);
    let mass_error = 4.0 * ULP * (roundings + logs.len() as f64) * (magnitude + spread + 1.0);
    // Integer counts of the components' probabilities, rounded down (so a drawn probability is
    // at most the computed one, and one below 2^-53 is 0), the largest taking the rest (at
    // most one count per component more than its share, relative 2^-53 (n + 1)^2).
    let probs: Vec<f64> = logs.iter().map(|l| (l - log_mass).exp()).collect();
    let scale = (1u64 << 53) as f64;
    let mut counts: Vec<u64> = probs.iter().map(|p| (p * scale).floor() as u64).collect();
    let largest = (0..counts.len())
        .max_by(|a, b| probs[*a].total_cmp(&probs[*b]))
        .unwrap_or(0);
    let others: u64 = counts
        .iter()
        .enumerate()
        .filter(|(j, _)| *j != largest)
        .map(|(_, c)| c)
        .sum();
    counts[largest] = (1u64 << 53) - others;
    // The drawn probability over the computed one, at most `ratio` for every component (the
    // computed one is off from the exact by twice the weights' error, relative).
    let ratio = counts
        .iter()
        .zip(&probs)
        .filter(|(c, _)| **c > 0)
        .map(|(c, p)| *c as f64 / scale / p)
        .fold(0.0, f64::max);
    let drawn_error = (ratio * (1.0 + 4.0 * ULP)).ln().max(0.0) + 2.0 * mass_error;
    let mut cumulative = Vec::with_capacity(counts.len());
    let mut acc = 0u64;
    for c in counts {
        acc += c;
        cumulative.push(acc);
    }
    (cumulative, log_mass, mass_error + drawn_error)
}

/// The loss tilt of a path: $\theta$ and the weight `mix` of the tilted law in a defensive
/// mixture ($1$: the tilted law alone, whose values are bounded by the Chernoff bound; below
/// $1$, every weight is also at most $1/(1-\lambda)$).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LossTilt {
    /// The tilt $\theta\ge1$ of $e^{\theta L}$.
    pub theta: u32,
    /// The weight λ ∈ (0, 1] of the tilted law.
    pub mix: f64,
}

impl LossTilt {
    /// $dP/d\bar G$ of a path whose $\ln dG/dP$ is at most `log_ratio`, $\bar G$ the defensive
    /// mixture $(1-\lambda)P+\lambda G$: $1/(1-\lambda+\lambda e^{\ln dG/dP})$ (for $\lambda=1$,
    /// $e^{-\ln dG/dP}$), so at most the exact weight.
    fn weight(&self, log_ratio: f64) -> f64 {
        if self.mix >= 1.0 {
            (-log_ratio).exp()
        } else {
            1.0 / (1.0 - self.mix + self.mix * log_ratio.exp())
        }
    }
}

/// The tilted classes of one phase at rate `q` and noise `sigma`: the whole step law tilted
/// by $e^{\theta\ell}$ (`whole`), and the drawn and the other outputs each tilted by it, for a
/// path given how many steps draw the record (`drawn`, `other`).
#[derive(Debug, Clone)]
pub struct TiltedPhase {
    /// Rate $q$ of the phase.
    pub q: f64,
    /// Noise multiplier σ of the phase.
    pub sigma: f64,
    /// $\varphi_0(p/q_0)^{\theta+1}$: the step law $P$ tilted.
    pub whole: TiltedClass,
    /// $\varphi_1(p/q_0)^\theta$: an output that draws the record, tilted.
    pub drawn: TiltedClass,
    /// $\varphi_0(p/q_0)^\theta$: an output that does not, tilted.
    pub other: TiltedClass,
}

impl TiltedPhase {
    /// The classes at `theta` for rate `q` ∈ (0, 1] and noise `sigma` > 0.
    pub fn new(q: f64, sigma: f64, theta: u32) -> TiltedPhase {
        TiltedPhase {
            q,
            sigma,
            whole: TiltedClass::new(0.0, theta + 1, q, sigma),
            drawn: TiltedClass::new(1.0, theta, q, sigma),
            other: TiltedClass::new(0.0, theta, q, sigma),
        }
    }

    /// $\sum_cn_c\ln m_c$ over a phase of `steps` steps, `drawn` of them known to draw the
    /// record (None: not known).
    pub fn log_mass(&self, steps: u64, drawn: Option<u64>) -> f64 {
        self.masses().log_mass(steps, drawn)
    }

    /// The log masses of the three classes.
    pub fn masses(&self) -> PhaseMasses {
        PhaseMasses {
            whole: self.whole.log_mass,
            drawn: self.drawn.log_mass,
            other: self.other.log_mass,
        }
    }
}

/// The log masses $\ln m$ of a phase's three tilted classes ([`TiltedPhase`]) without their
/// samplers: the same values, at a fraction of the cost, for a search over $\theta$.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PhaseMasses {
    whole: f64,
    drawn: f64,
    other: f64,
}

impl PhaseMasses {
    /// The masses [`TiltedPhase::new`] would give at rate `q`, noise `sigma` and `theta`.
    pub fn new(q: f64, sigma: f64, theta: u32) -> PhaseMasses {
        PhaseMasses {
            whole: TiltedClass::log_mass_of(0.0, theta + 1, q, sigma),
            drawn: TiltedClass::log_mass_of(1.0, theta, q, sigma),
            other: TiltedClass::log_mass_of(0.0, theta, q, sigma),
        }
    }

    /// $\sum_cn_c\ln m_c$ over a phase of `steps` steps, `drawn` of them known to draw the
    /// record (None: not known).
    pub fn log_mass(&self, steps: u64, drawn: Option<u64>) -> f64 {
        match drawn {
            None => steps as f64 * self.whole,
            Some(k) => {
                let k = k.min(steps);
                k as f64 * self.drawn + (steps - k) as f64 * self.other
            }
        }
    }
}

/// $\ln$ of the Chernoff bound on $\delta(\epsilon)$ that a tilt's values are below (module
/// docs), from $\sum_cn_c\ln m_c$ = `log_mass`:
/// $\sum_cn_c\ln m_c-\theta\epsilon+\theta\ln\theta-(\theta+1)\ln(\theta+1)$.
pub fn log_value_bound(log_mass: f64, theta: u32, epsilon: f64) -> f64 {
    let t = theta as f64;
    log_mass - t * epsilon + t * t.ln() - (t + 1.0) * (t + 1.0).ln()
}

/// One path of the remove pair under the defensive mixture of `tilt`: its weight $w$ (at most
/// the exact $dP/d\bar G$, module docs) and privacy loss $L$. Each phase is simulated for its
/// count of steps; with `drawn` = Some(k) (one phase only) the path is the law given that
/// the record is drawn at exactly k of the steps (given the count the steps are exchangeable:
/// the first k are the drawn ones), else the steps draw it at rate $q$. The phases' classes
/// must be at `tilt.theta`.
pub fn remove_tilted_path(
    phases: &[(&TiltedPhase, u64)],
    drawn: Option<u64>,
    tilt: &LossTilt,
    rng: &mut TrialRng,
) -> (f64, f64) {
    let tilted = tilt.mix >= 1.0 || (tilt.mix > 0.0 && rng.random_bool(tilt.mix));
    let (mut loss, mut size, mut log_mass, mut log_error) = (0.0, 0.0, 0.0, 0.0);
    let mut total = 0u64;
    for (phase, steps) in phases {
        let (q, sigma) = (phase.q, phase.sigma);
        let ln_q_size = q.ln().abs();
        let classes = match drawn {
            None => [(&phase.whole, *steps), (&phase.other, 0)],
            Some(k) => {
                let k = k.min(*steps);
                [(&phase.drawn, k), (&phase.other, steps - k)]
            }
        };
        for (class, n) in classes {
            log_mass += n as f64 * class.log_mass;
            log_error += n as f64 * class.log_error;
            total += n;
            for _ in 0..n {
                let x = if tilted {
                    class.sample(rng)
                } else {
                    let noise: f64 = StandardNormal.sample(rng);
                    let mean = match drawn {
                        None => {
                            if rng.random_bool(q) {
                                1.0
                            } else {
                                0.0
                            }
                        }
                        Some(_) => class.mean,
                    };
                    mean + sigma * noise
                };
                let l = LossPair::Remove.output_loss(x, q, sigma);
                loss += l;
                // ln q, ln(1 - q) and the exponent are rounded apart from l: their sizes too.
                size += l.abs() + 1.0 + 2.0 * ln_q_size;
            }
        }
    }
    let theta = tilt.theta as f64;
    // ln dG/dP of the path, and the most it can be off by (the summed loss: each term a few
    // roundings, the sum one per step).
    let log_ratio = theta * loss - log_mass;
    let error = log_error + theta * 4.0 * ULP * (total as f64 + 8.0) * size;
    let upper = log_ratio + error;
    (tilt.weight(upper), loss)
}

/// One epoch of a one-hot pair (shuffled batches, random allocation: `ShuffledPair` with
/// `first` $=u>0$ and `second` $=0$): of $t$ slots one, uniform, has mean $u$ under $P$, and
/// $Q$ has every slot at 0. Then $p/q_0=\frac1t\sum_ie^{(uy_i-u^2/2)/\sigma^2}$, and for an
/// integer $n$, expanding the power over the slots each of the $n$ factors picks,
/// $$q_0\thinspace(p/q_0)^n=t^{-n}\sum_{c}\binom n{c_1,\dots,c_t}e^{u^2\sum_ic_i(c_i-1)/(2\sigma^2)}
/// \prod_i\varphi_{c_iu}(y_i)$$
/// over occupancies $c$ of $n$ balls in $t$ slots. The weight depends on $c$ only through its
/// partition $\lambda$ of $n$ (the nonzero $c_i$, $\ell$ of them, $\mu_r$ equal to $r$):
/// $\frac{t!}{(t-\ell)!\prod_r\mu_r!}$ occupancies, each of weight
/// $t^{-n}\frac{n!}{\prod_ic_i!}e^{u^2\sum_ic_i(c_i-1)/(2\sigma^2)}$. So the tilted epoch
/// $G\propto P\thinspace e^{\theta\ell}=q_0(p/q_0)^{\theta+1}$ is drawn exactly: a partition of
/// $n=\theta+1$ with these weights, its parts on $\ell$ distinct slots (the first ones: the
/// loss is symmetric in the slots), then the Gaussians; its mass $m$ is the Rényi moment of the epoch, and again $dP/dG=m\thinspace e^{-\theta\ell}$.
#[derive(Debug, Clone)]
pub struct TiltedEpoch {
    slots: usize,
    sigma: f64,
    shift: f64,
    /// The partitions of $n$ (parts in decreasing order) with at most `slots` parts.
    partitions: Vec<Vec<u32>>,
    cumulative: Vec<u64>,
    log_mass: f64,
    log_error: f64,
}

/// The partitions of `n` into at most `most` parts, parts decreasing, in lexicographic order.
fn partitions(n: u32, most: usize) -> Vec<Vec<u32>> {
    fn go(left: u32, cap: u32, most: usize, cur: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
        if left == 0 {
            out.push(cur.clone());
            return;
        }
        if cur.len() == most {
            return;
        }
        for part in (1..=cap.min(left)).rev() {
            cur.push(part);
            go(left - part, part, most, cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    go(n, n, most, &mut Vec::new(), &mut out);
    out
}

/// $\ln k!$ as a sum of logarithms, and the sum of their magnitudes.
fn ln_factorial(k: u32) -> (f64, f64) {
    let v: f64 = (2..=k).map(|i| (i as f64).ln()).sum();
    (v, v)
}

impl TiltedEpoch {
    /// The largest $n=\theta+1$ drawn (40 has 37 338 partitions).
    pub const MOST_PARTITIONS_N: u32 = 40;

    /// The epoch of `slots` slots, the record's slot at `shift` > 0 under $P$, noise `sigma`,
    /// tilted by $e^{\theta\ell}$; None when $\theta+1$ exceeds [`Self::MOST_PARTITIONS_N`] or
    /// there is no slot.
    pub fn new(slots: usize, sigma: f64, shift: f64, theta: u32) -> Option<TiltedEpoch> {
        let n = theta + 1;
        if n > Self::MOST_PARTITIONS_N || slots == 0 {
            return None;
        }
        let parts = partitions(n, slots);
        let t = slots as f64;
        let (ln_n_fact, n_fact_size) = ln_factorial(n);
        let scale = shift * shift / (2.0 * sigma * sigma);
        let mut logs = Vec::with_capacity(parts.len());
        let mut magnitude: f64 = 0.0;
        for p in &parts {
            let ell = p.len();
            let mut v = -(n as f64) * t.ln() + ln_n_fact;
            let mut size = (n as f64) * t.ln().abs() + n_fact_size;
            for i in 0..ell {
                let f = ((slots - i) as f64).ln();
                v += f;
                size += f;
            }
            // Multiplicities of equal parts, and the parts' factorials and clumping.
            let mut i = 0;
            while i < ell {
                let mut j = i;
                while j < ell && p[j] == p[i] {
                    j += 1;
                }
                let (f, fs) = ln_factorial((j - i) as u32);
                v -= f;
                size += fs;
                i = j;
            }
            for &c in p {
                let (f, fs) = ln_factorial(c);
                let clump = scale * (c as f64) * (c as f64 - 1.0);
                v += clump - f;
                size += fs + clump.abs();
            }
            magnitude = magnitude.max(size);
            logs.push(v);
        }
        // Roundings per weight: n for n!, at most n for the slots' product, n for the parts'
        // factorials, n for the multiplicities, 2n for the clumping, and a few.
        let (cumulative, log_mass, log_error) =
            drawn_mixture(&logs, 6.0 * n as f64 + 8.0, magnitude);
        Some(TiltedEpoch {
            slots,
            sigma,
            shift,
            partitions: parts,
            cumulative,
            log_mass,
            log_error,
        })
    }

    /// $\ln m$: the log of the tilted epoch's mass ($\theta\thinspace D_{\theta+1}(P\Vert Q)$).
    pub fn log_mass(&self) -> f64 {
        self.log_mass
    }
}

/// The loss of one epoch of the one-hot pair with the record's slot at $u$ under $P$ and all
/// at 0 under $Q$, from its outputs: $\ln\sum_ie^{(uy_i-u^2/2)/\sigma^2}-\ln t$.
fn one_hot_loss(ys: &[f64], u: f64, sigma: f64) -> f64 {
    let s2 = sigma * sigma;
    let lse_p = ys.iter().fold(f64::NEG_INFINITY, |acc, y| {
        log_add_exp(acc, (u * y - 0.5 * u * u) / s2)
    });
    lse_p - (ys.len() as f64).ln()
}

/// One path of `epochs` epochs of the one-hot pair of `epoch` (the record's slot at
/// `epoch.shift` under $P$, all at 0 under $Q$) under the defensive mixture of `tilt`
/// (`tilt.theta` must be the epoch's): its weight (at most the exact $dP/d\bar G$) and privacy
/// loss.
pub fn one_hot_tilted_path(
    epoch: &TiltedEpoch,
    epochs: u64,
    tilt: &LossTilt,
    rng: &mut TrialRng,
) -> (f64, f64) {
    let tilted = tilt.mix >= 1.0 || (tilt.mix > 0.0 && rng.random_bool(tilt.mix));
    let t = epoch.slots;
    let mut ys = vec![0.0; t];
    let mut counts = vec![0u32; t];
    let (mut loss, mut size) = (0.0, 0.0);
    for _ in 0..epochs {
        counts.iter_mut().for_each(|c| *c = 0);
        if tilted {
            // The parts on the first slots: the loss is symmetric in the slots (and the weight
            // a function of the loss), so it has the same law as with uniform distinct slots.
            let parts = &epoch.partitions[draw_component(&epoch.cumulative, rng)];
            counts[..parts.len()].copy_from_slice(parts);
        } else {
            counts[rng.random_range(0..t)] = 1;
        }
        for (y, c) in ys.iter_mut().zip(&counts) {
            let noise: f64 = StandardNormal.sample(rng);
            *y = epoch.shift * *c as f64 + epoch.sigma * noise;
        }
        let l = one_hot_loss(&ys, epoch.shift, epoch.sigma);
        loss += l;
        size += l.abs()
            + ys.iter().map(|y| y.abs()).sum::<f64>() * epoch.shift / (epoch.sigma * epoch.sigma)
            + epoch.shift * epoch.shift / (epoch.sigma * epoch.sigma)
            + (t as f64).ln();
    }
    let theta = tilt.theta as f64;
    let e = epochs as f64;
    let log_ratio = theta * loss - e * epoch.log_mass;
    // Each epoch's loss: 2t log-add-exps of arguments of the sizes summed in `size`.
    let error = e * epoch.log_error + theta * 8.0 * ULP * (t as f64 + 8.0) * (size + e);
    let upper = log_ratio + error;
    (tilt.weight(upper), loss)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::privacy_loss::{Phase, ShuffledPair, Tilt, shuffled_hockey_stick_trial};
    use crate::rng::StreamKey;
    use crate::stats::MeanAcc;

    /// The mean of `f(i)` over `n` trials, its standard error, and the largest value.
    fn mean_se(n: u64, mut f: impl FnMut(u64) -> f64) -> (f64, f64, f64) {
        let mut acc = MeanAcc::new();
        for i in 0..n {
            acc.push(f(i));
        }
        (acc.mean, (acc.variance() / n as f64).sqrt(), acc.max)
    }

    /// Two estimates agree within 4 standard errors.
    fn agree(a: (f64, f64, f64), b: (f64, f64, f64), what: &str) {
        assert!(
            (a.0 - b.0).abs() < 4.0 * (a.1 * a.1 + b.1 * b.1).sqrt(),
            "{what}: {} +- {} vs {} +- {}",
            a.0,
            a.1,
            b.0,
            b.1
        );
    }

    /// $w(1-e^{\epsilon-L})_+$ of a (weight, loss) path.
    fn value((w, l): (f64, f64), eps: f64) -> f64 {
        w * (-(eps - l).exp_m1()).max(0.0)
    }

    /// The mass is the Rényi moment: for the whole law at $\theta=1$,
    /// $\ln m=\ln(1+q^2(e^{1/\sigma^2}-1))$.
    #[test]
    fn mass_is_the_renyi_moment() {
        let (q, sigma) = (0.03, 0.7);
        let c = TiltedClass::new(0.0, 2, q, sigma);
        let exact = (q * q * ((1.0 / (sigma * sigma)).exp() - 1.0)).ln_1p();
        assert!(
            (c.log_mass() - exact).abs() < 1e-14,
            "{} {exact}",
            c.log_mass()
        );
        assert!(c.log_error < 1e-12 && c.log_error > 0.0, "{}", c.log_error);
        // The class of drawn outputs at n = 1: E_{N(1)}[1 - q + q r] = 1 - q + q e^{1/sigma^2}.
        let d = TiltedClass::new(1.0, 1, q, sigma);
        let exact = (1.0 - q + q * (1.0 / (sigma * sigma)).exp()).ln();
        assert!((d.log_mass() - exact).abs() < 1e-14);
        // q = 1 (every step draws the record): the single component j = n, of mass
        // e^{n(n-1)/(2 sigma^2)}.
        let full = TiltedClass::new(0.0, 3, 1.0, sigma);
        let exact = 3.0 / (sigma * sigma);
        assert!(
            (full.log_mass() - exact).abs() < 1e-13,
            "{}",
            full.log_mass()
        );
        assert!(full.log_error.is_finite() && full.log_error < 1e-10);
        assert_eq!(full.cumulative, vec![0, 0, 0, 1u64 << 53]);
    }

    /// The masses alone ([`PhaseMasses`], what the search over θ uses) are the samplers'
    /// masses, to the bit, over rates, noises and orders (q = 1 included).
    #[test]
    fn phase_masses_are_the_samplers_masses() {
        for q in [1e-4, 0.01, 0.3, 1.0] {
            for sigma in [0.3, 1.0, 5.0, 1e8] {
                for theta in [1u32, 2, 7, 40, 300] {
                    let phase = TiltedPhase::new(q, sigma, theta);
                    let masses = PhaseMasses::new(q, sigma, theta);
                    assert_eq!(masses, phase.masses(), "q {q} sigma {sigma} theta {theta}");
                    for drawn in [None, Some(0), Some(3), Some(50)] {
                        let (a, b) = (masses.log_mass(50, drawn), phase.log_mass(50, drawn));
                        assert!(a == b || (a.is_nan() && b.is_nan()), "{a} {b}");
                    }
                }
            }
        }
    }

    /// The tilted classes are the laws they claim to be: $\mathbb E_G[dP/dG]=1$ for the whole
    /// law and for an output known to draw the record or not.
    #[test]
    fn weights_average_to_one() {
        let (q, sigma, theta) = (0.05, 0.8, 3u32);
        let key = StreamKey::new(7, &["loss-tilt"]);
        let phase = TiltedPhase::new(q, sigma, theta);
        let tilt = LossTilt { theta, mix: 1.0 };
        for drawn in [None, Some(0u64), Some(1u64)] {
            let w = mean_se(400_000, |i| {
                remove_tilted_path(&[(&phase, 1)], drawn, &tilt, &mut key.trial(i)).0
            });
            agree(w, (1.0, 0.0, 0.0), &format!("{drawn:?}"));
        }
        // A mutant whose mass is 2% off (a wrong weight, e.g. a dropped clumping term of
        // size 0.02) is caught by the same check.
        let mut wrong = phase.clone();
        wrong.whole.log_mass += 0.02;
        let w = mean_se(400_000, |i| {
            remove_tilted_path(&[(&wrong, 1)], None, &tilt, &mut key.trial(i)).0
        });
        assert!(
            (w.0 - 1.0).abs() > 4.0 * w.1,
            "the mutant passed: {} +- {}",
            w.0,
            w.1
        );
    }

    /// The tilted estimate of δ agrees with plain Monte Carlo (10 steps), whole and
    /// stratified on the draws, and every weighted value is below the Chernoff bound.
    #[test]
    fn tilted_estimate_is_unbiased_and_bounded() {
        let (q, sigma, steps, eps) = (0.1, 0.9, 10u64, 1.0);
        let theta = 2;
        let phase = TiltedPhase::new(q, sigma, theta);
        let bound = log_value_bound(phase.log_mass(steps, None), theta, eps).exp();
        let key = StreamKey::new(8, &["loss-tilt-delta"]);
        let tilt = LossTilt { theta, mix: 1.0 };
        let log_mass = phase.log_mass(steps, None);
        let tilted = mean_se(200_000, |i| {
            let (w, l) = remove_tilted_path(&[(&phase, steps)], None, &tilt, &mut key.trial(i));
            // Lowered, never raised: below the closed form m^T e^{-theta L}, within 1e-9.
            let exact = (log_mass - theta as f64 * l).exp();
            assert!(w <= exact && w >= exact * (1.0 - 1e-9), "{w} vs {exact}");
            value((w, l), eps)
        });
        assert!(tilted.2 <= bound, "{} > {bound}", tilted.2);
        let plain = StreamKey::new(8, &["loss-tilt-plain"]);
        let plain = mean_se(1_000_000, |i| {
            LossPair::Remove.hockey_stick_trial(q, sigma, steps, eps, &mut plain.trial(i))
        });
        agree(tilted, plain, "whole law");
        // The defensive mixture of the whole law (its untilted half draws from P).
        let half = LossTilt { theta, mix: 0.5 };
        let mixed = mean_se(200_000, |i| {
            value(
                remove_tilted_path(&[(&phase, steps)], None, &half, &mut key.trial(i)),
                eps,
            )
        });
        agree(mixed, plain, "defensive mixture");
        // Two phases: the same law as plain sampling of the phases in turn.
        let second = TiltedPhase::new(0.3, 1.4, theta);
        let both = mean_se(200_000, |i| {
            value(
                remove_tilted_path(&[(&phase, 6), (&second, 4)], None, &tilt, &mut key.trial(i)),
                eps,
            )
        });
        let phases = [
            Phase { q, sigma, steps: 6 },
            Phase {
                q: 0.3,
                sigma: 1.4,
                steps: 4,
            },
        ];
        let plain_key = StreamKey::new(8, &["loss-tilt-phases"]);
        let plain_both = mean_se(1_000_000, |i| {
            LossPair::Remove.weighted_trial_phases(
                &phases,
                eps,
                &Tilt::NONE,
                &mut plain_key.trial(i),
            )
        });
        agree(both, plain_both, "two phases");
        // Conditioned on the draws (a defensive mixture): the same law, mixed over
        // K ~ Binomial(steps, q).
        let (mut total, mut var) = (0.0, 0.0);
        for k in 0..=steps {
            let pk = binomial(steps, k, q);
            let key = StreamKey::new(8, &["loss-tilt-k", &k.to_string()]);
            let tilt = LossTilt { theta, mix: 0.5 };
            let (m, se, _) = mean_se(40_000, |i| {
                value(
                    remove_tilted_path(&[(&phase, steps)], Some(k), &tilt, &mut key.trial(i)),
                    eps,
                )
            });
            total += pk * m;
            var += pk * pk * se * se;
        }
        agree((total, var.sqrt(), 0.0), plain, "stratified");
    }

    /// The one-hot epoch's mass at n = 2 is $(e^{u^2/\sigma^2}+t-1)/t$ (two balls in one slot
    /// or in two), its weights average to 1, and its estimate of δ agrees with plain Monte
    /// Carlo of the shuffled pair, with a smaller error.
    #[test]
    fn one_hot_epoch_is_the_tilted_law() {
        let (t, sigma, u) = (5usize, 1.2, 2.0);
        let e = TiltedEpoch::new(t, sigma, u, 1).unwrap();
        let exact = (((u * u / (sigma * sigma)).exp() + t as f64 - 1.0) / t as f64).ln();
        assert!(
            (e.log_mass() - exact).abs() < 1e-14,
            "{} {exact}",
            e.log_mass()
        );
        assert_eq!(partitions(5, 10).len(), 7);
        assert_eq!(partitions(5, 2).len(), 3);
        // A tail: at sigma 2.5 and eps 3, delta is about 1.6e-4; theta = 4 minimises the bound.
        let (sigma, theta) = (2.5, 4);
        let epoch = TiltedEpoch::new(t, sigma, u, theta).unwrap();
        let (epochs, eps) = (4u64, 3.0);
        let bound = log_value_bound(epochs as f64 * epoch.log_mass(), theta, eps).exp();
        let key = StreamKey::new(9, &["one-hot-tilt"]);
        let tilt = LossTilt { theta, mix: 1.0 };
        let mut weights = MeanAcc::new();
        let tilted = mean_se(100_000, |i| {
            let (w, l) = one_hot_tilted_path(&epoch, epochs, &tilt, &mut key.trial(i));
            let exact = (epochs as f64 * epoch.log_mass() - theta as f64 * l).exp();
            assert!(w <= exact && w >= exact * (1.0 - 1e-9), "{w} vs {exact}");
            weights.push(w);
            value((w, l), eps)
        });
        assert!(tilted.2 <= bound, "{} > {bound}", tilted.2);
        let se = (weights.variance() / weights.n as f64).sqrt();
        agree((weights.mean, se, 0.0), (1.0, 0.0, 0.0), "weights");
        let half = LossTilt { theta, mix: 0.5 };
        let mixed = mean_se(100_000, |i| {
            value(
                one_hot_tilted_path(&epoch, epochs, &half, &mut key.trial(i)),
                eps,
            )
        });
        let plain = StreamKey::new(9, &["one-hot-plain"]);
        let pair = ShuffledPair {
            first: u,
            second: 0.0,
        };
        let plain = mean_se(400_000, |i| {
            shuffled_hockey_stick_trial(t, sigma, epochs, pair, eps, &mut plain.trial(i))
        });
        agree(tilted, plain, "one-hot epoch");
        agree(mixed, plain, "one-hot epoch, defensive mixture");
        assert!(
            tilted.1 < plain.1,
            "the tilt should lower the error: {} vs {}",
            tilted.1,
            plain.1
        );
    }

    fn binomial(n: u64, k: u64, q: f64) -> f64 {
        use statrs::distribution::{Binomial, Discrete};
        Binomial::new(q, n).expect("a rate in [0, 1]").pmf(k)
    }
}
