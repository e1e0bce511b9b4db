//! A certified lower reference for DP-SGD with shuffled fixed-size batches, and the worst
//! configuration of the other records for the statistics it and the audit's Monte Carlo use.
//!
//! # The mechanism and what the adversary chooses
//! Each epoch cuts a fresh random permutation of the $n=kb$ records into $k$ batches of $b$;
//! batch $j$ releases $y_j=\sum_{i\in B_j}g_i+\mathcal N(0,\sigma^2I)$, gradients in units of the
//! clipping norm $C$ (so $\Vert g_i\Vert\le1$). Under replace-one the datasets $D$, $D'$ differ
//! in one record, whose clipped gradient is $x$ in $D$ and $x'$ in $D'$; every other gradient is
//! the same in both, and all of them are the adversary's to choose, as is the order of $D$ and
//! $D'$. The differing record sits in one batch, at a position $J$ hidden from the adversary.
//!
//! **Other records all equal.** If every other record has the gradient $g$, the batches without
//! the record sum to $bg$ and the record's to $(b-1)g+x$. Subtracting $bg$ and projecting on a
//! unit vector $w$ (both post-processings) leaves
//! $$y_j\sim\mathcal N(u\thinspace\mathbb 1\lbrace j=J\rbrace,\sigma^2)\text{ in }D,\qquad
//! y_j\sim\mathcal N(v\thinspace\mathbb 1\lbrace j=J\rbrace,\sigma^2)\text{ in }D',\qquad
//! u=\langle w,x-g\rangle,\ v=\langle w,x'-g\rangle.$$
//! Every pair of the set $R=\lbrace(u,v):\vert u\vert\le2,\ \vert v\vert\le2,\ \vert u-v\vert\le2\rbrace$
//! is realised (one dimension, $g=-c$ for a $c\in[\max(u,v)-1,\min(u,v)+1]\cap[-1,1]$, $x=u-c$,
//! $x'=v-c$), and no other: $R$ is the replace-one set. Under add/remove, with the convention
//! that the record's absence leaves its slot empty in the same permutation of the others (the
//! audit takes no add/remove row for shuffled batches: with $n-1$ records the batches are cut
//! differently), $v=\langle w,-g\rangle$ and the set is
//! $R_{ar}=\lbrace\vert v\vert\le1,\ \vert u-v\vert\le1\rbrace$. The old configuration (others
//! at 0, the record $\pm1$) is the pair $(1,-1)$ of $R$.
//!
//! # The maximum statistic: the worst pair is $(2,0)$
//! The maximum $M=\max_jy_j$ of the pair $(u,v)$ has the laws $F_u$ and $F_v$,
//! $$F_m(t)=\Phi\big(\tfrac{t-m}\sigma\big)\Phi\big(\tfrac t\sigma\big)^{k-1}$$
//! (the idea of Chua, Ghazi, Kamath, Kumar, Manurangsi, Sinha & Zhang, ICML 2024). Write
//! $E_\gamma(P\Vert Q)=\sup_A P(A)-\gamma Q(A)$, so that $\delta(\epsilon)=E_{e^\epsilon}$.
//!
//! *Lemma 1 (raising the other batches is a post-processing).* With the other $k-1$ batches at
//! mean $a\ge0$ instead of 0, $M$ has the CDF $F_m(t)G_a(t)$ with
//! $G_a(t)=\big(\Phi(\frac{t-a}\sigma)/\Phi(\frac t\sigma)\big)^{k-1}$, a CDF ($\Phi$ is
//! log-concave, so the ratio is non-decreasing, with limits 0 and 1). So that $M$ is
//! $\max(M_0,V)$ with $V\sim G_a$ drawn independently: one kernel for $D$ and $D'$, and $E_\gamma$
//! can only fall.
//!
//! *Lemma 2 (monotone likelihood ratio for means $\ge0$).* For $0\le v<u$, $f_u/f_v$ (densities)
//! is non-decreasing. Take $\sigma=1$ (scale $t$ and $u$). With $s=t-u$, $r=\varphi/\Phi$ and
//! $m(t)=(k-1)r(t)$: $f_u(t)=\Phi(t)^{k-1}\big(\varphi(s)+m(t)\Phi(s)\big)$, so
//! $\partial_u\ln f_u(t)=(s-m)\frac{r(s)}{r(s)+m}$. By $r'(s)=-r(s)(s+r(s))$ and
//! $m'(t)=-m(t)(t+r(t))$, its derivative in $t$ is
//! $$\frac{r(s)}{(r(s)+m)^2}\Big(r(s)+m+m\big(s+r(s)\big)\big(u+m+r(t)\big)\Big),$$
//! which is $\ge0$ for $u\ge0$ since $s+r(s)>0$ (the Mills bound $\Phi(s)<\varphi(s)/\vert s\vert$
//! for $s<0$). So $\ln f_u(t)$ is supermodular on $[0,\infty)\times\mathbb R$. (For $u<0$ the
//! bracket can be negative, and Lemma 1 is used instead.)
//!
//! *Lemma 3 (threshold tests).* If $p/q$ is non-decreasing the set $\lbrace p>\gamma q\rbrace$ is
//! an upper half-line, so $E_\gamma(P\Vert Q)=\sup_c S_P(c)-\gamma S_Q(c)$ ($S=1-F$); if it is
//! non-increasing, $E_\gamma(P\Vert Q)=\sup_c F_P(c)-\gamma F_Q(c)$. And $S_m(c)$ increases with
//! $m$ (raise one output: the maximum can only rise).
//!
//! *Theorem.* For every $(u,v)\in R$ and every $\gamma\ge0$,
//! $E_\gamma(F_u\Vert F_v)\le E_\gamma(F_2\Vert F_0)$ if $u\ge v$ and
//! $E_\gamma(F_u\Vert F_v)\le E_\gamma(F_0\Vert F_2)$ if $u<v$. *Proof* ($u\ge v$). If $v\le0$,
//! subtract $v$ from every output (invertible): the record's batch is at $u-v\le2$ against 0,
//! the others at $-v\ge0$; by Lemma 1, $E_\gamma\le E_\gamma(F_{u-v}\Vert F_0)$, which by Lemmas 2
//! and 3 is $\sup_cS_{u-v}(c)-\gamma S_0(c)\le\sup_cS_2(c)-\gamma S_0(c)\le E_\gamma(F_2\Vert F_0)$.
//! If $v>0$ then $0<v\le u\le2$ and Lemmas 2 and 3 give
//! $\sup_cS_u(c)-\gamma S_v(c)\le\sup_cS_2(c)-\gamma S_0(c)$. The case $u<v$ is the mirror
//! image with lower half-lines. $\square$ In datasets: every other record at $-C$, the differing
//! record at $+C$ in one dataset and $-C$ in the other: the batch sums are $-(b-2)C$ against $-bC$
//! in the record's batch and $-bC$ elsewhere. (Issue 32; its 23.69 at $k=2$, $\sigma=0.5$,
//! $\delta=10^{-5}$ is reproduced by the tests.) Under add/remove the same three lemmas give
//! the pair $(2,1)$ and its reverse (record $+C$ present against absent, others at $-C$: the
//! short batch shows where the record is in both datasets): for $u\ge v$, if $v\le0$ the steps
//! above give $E_\gamma\le E_\gamma(F_1\Vert F_0)$; if $v>0$, Lemmas 2 and 3 give
//! $E_\gamma\le E_\gamma(F_{v+1}\Vert F_v)$; and $(v+1,v)$ for $v\le1$ is $(2,1)$ with every
//! output lowered by $1-v$ and the other batches raised by $1-v$ (Lemma 1).
//!
//! Since the bound holds at every $\gamma$, the worst pair dominates every realisable pair in
//! the sense of Blackwell (trade-off functions), so it stays worst under composition: over $E$
//! epochs (fresh permutations, possibly different configurations per epoch) the adversary's
//! best is a composition of $e$ epochs of $(F_2\Vert F_0)$ and $E-e$ of $(F_0\Vert F_2)$. The
//! reference reports the better of $e=E$ and $e=0$; mixed sequences were measured no better
//! (test `mixed_orders_are_no_better`).
//!
//! **Other records not all equal.** With batches of one record ($b=1$) the other batches hold
//! the other records, a fixed multiset of means $\ge-1$: Lemma 1 with one level per batch shows
//! $-C$ for all of them is worst again. For $b\ge2$ the record's batch-mates are drawn at random
//! and the proof above does not apply: the test `search_finds_nothing_worse` enumerates every
//! configuration on a grid at $n\le6$ (the law of $M$ then a mixture over the permutations) and
//! finds none above $(2,0)$.
//!
//! # The certified reference
//! Binning $M$ on a fine grid (a further post-processing), rounding each bin's loss down to
//! the PLD grid and dropping bins without $Q$ mass gives an optimistic PLD of one epoch; its
//! $E$-fold optimistic composition (independent permutations per epoch) bounds $\delta(\epsilon)$
//! of the shuffled mechanism from below, so its $\epsilon(\delta)$ is a certified lower bound on
//! the true $\epsilon$ — the exact $\epsilon$ of a statistic of a realisable pair, less the grid's
//! error. Both orders are realisable; the larger is reported.
//!
//! # The whole epoch (the Monte Carlo)
//! The audit's Monte Carlo simulates the privacy loss of the whole epoch of the same pair,
//! $P=\frac1k\sum_J\mathcal N(2e_J,\sigma^2I)$ against $Q=\mathcal N(0,\sigma^2I)$, in both orders
//! (its optimal statistic, the likelihood ratio $\frac1k\sum_je^{(2y_j-2)/\sigma^2}$, has no
//! closed-form law for $k\ge3$). For $k=2$ this pair is worst over $R$ for the whole epoch as
//! well: in the coordinates $(y_1+y_2)/\sqrt2$ and $(y_1-y_2)/\sqrt2$, independent, the pair
//! $(u,v)$ is a Gaussian shift by $(u-v)/\sqrt2$ times the pair of folded normals with centres
//! $\vert u\vert/\sqrt2$ and $\vert v\vert/\sqrt2$ (a family with monotone likelihood ratio), so
//! by Lemma 3 per coordinate $(u,v)$ is dominated by $(2,0)$ or by $(0,-2)$, the mirror image
//! of $(0,2)$. For $k\ge3$ the test `whole_epoch_boundary_is_worst_at_two_zero` checks the
//! boundary $(2-a,-a)$ of $R$ by quadrature.

use super::pld::{MAX_FFT, Pld, PldOptions, Rounding};
use crate::error::{ParamError, at_least, positive};
use crate::numerics::{log_add_exp, log_norm_cdf, log_sub_exp};

/// $(\ln F(t),\ln(1-F(t)))$ for $F(t)=P(M\le t)$ with the record's batch at mean `m`.
/// With $x_1=(t-m)/\sigma$, $x_0=t/\sigma$: $-\ln F=V=w(x_1)+(k-1)w(x_0)$, $w(x)=-\ln\Phi(x)$,
/// and $1-F=1-e^{-V}$. $V$ is kept as a logarithm, $\ln w(x)=\ln\bar\Phi(x)+O(\bar\Phi(x))$ once
/// $\bar\Phi(x)<10^{-13}$, so that survival probabilities below the smallest double (the
/// record's batch far above the others at small $\sigma$) keep their exponent.
fn log_cdf_sf(t: f64, m: f64, sigma: f64, batches: u64) -> (f64, f64) {
    if t == f64::NEG_INFINITY {
        return (f64::NEG_INFINITY, 0.0);
    }
    if t == f64::INFINITY {
        return (0.0, f64::NEG_INFINITY);
    }
    let (x1, x0) = ((t - m) / sigma, t / sigma);
    let others = (batches - 1) as f64;
    let ln_w = |x: f64| {
        if x > 7.5 {
            log_norm_cdf(-x)
        } else {
            (-log_norm_cdf(x)).ln()
        }
    };
    let (log_f, ln_v) = if batches > 1 {
        (
            log_norm_cdf(x1) + others * log_norm_cdf(x0),
            log_add_exp(ln_w(x1), others.ln() + ln_w(x0)),
        )
    } else {
        (log_norm_cdf(x1), ln_w(x1))
    };
    // ln(1 - e^{-V}): directly unless V is tiny, then ln V + ln(1 - V/2) (relative V^2/6).
    let v = ln_v.exp();
    let log_s = if ln_v > -20.0 {
        (-(-v).exp_m1()).ln()
    } else {
        ln_v + (-0.5 * v).ln_1p()
    };
    (log_f, log_s)
}

/// The worst pair of means of the record's batch under replace-one (the other batches at 0,
/// units of $C$): $(2,0)$, in datasets every other record at $-C$ and the differing record $+C$
/// against $-C$ (module doc). [`lower_plds`] uses it in both orders.
pub const REPLACE_ONE_WORST: (f64, f64) = (2.0, 0.0);

/// The worst pair under add/remove with the record's slot left empty (module doc): $(2,1)$.
/// Not used by the audit (it takes no add/remove row for shuffled batches).
pub const ADD_REMOVE_WORST: (f64, f64) = (2.0, 1.0);

/// The optimistic one-epoch PLD of the maximum statistic of the pair `means` $=(u,v)$: the
/// record's batch at mean $u$ under $P$ and $v$ under $Q$, the other batches at 0 (the pair
/// $(F_u,F_v)$ of the module doc; $(v,u)$ is the other order), built in log space: each bin's loss is $\ln P(\text{bin})-\ln Q(\text{bin})$ from
/// logarithms of the masses (at $\sigma=0.03$ they are $e^{-600}$ and below, and their ratio
/// overflowed). Then, each a further rounding down of the loss: the lowest losses carrying at
/// most `tail_mass` of $P$ are dropped (moved to $-\infty$), the highest carrying at most
/// `tail_mass` are lowered to the loss below them, every loss is lowered by $10^{-9}\max(|\ell|,1)$
/// (floating-point error) and to the grid. An error ([`ParamError::is_too_fine`]) when the
/// losses left span more than `opts.max_points` grid points or sit beyond $2^{53}$ grid steps.
pub fn max_statistic_pld(
    batches: u64,
    sigma: f64,
    means: (f64, f64),
    opts: &PldOptions,
) -> Result<Pld, ParamError> {
    at_least("batches", batches, 1)?;
    positive("sigma", sigma)?;
    let (mp, mq) = means;
    for (name, m) in [("mean under P", mp), ("mean under Q", mq)] {
        if m.is_nan() || m.abs() > 2.0 {
            return Err(ParamError::new(name, m, "a mean in [-2, 2] (units of C)"));
        }
    }
    // Bins of M: 40 000 on [min(u, v, 0) - 9 sigma - 1, max(u, v, 0) + sigma sqrt(2 ln k) +
    // 9 sigma + 1], and the two tails.
    let lo = mp.min(mq).min(0.0) - (9.0 * sigma + 1.0);
    let hi = mp.max(mq).max(0.0) + sigma * ((batches as f64).ln() * 2.0).sqrt() + 9.0 * sigma + 1.0;
    let n = 40_000usize;
    let h = (hi - lo) / n as f64;
    let edges: Vec<f64> = std::iter::once(f64::NEG_INFINITY)
        .chain((0..=n).map(|i| lo + i as f64 * h))
        .chain(std::iter::once(f64::INFINITY))
        .collect();
    let ends = |m: f64| -> Vec<(f64, f64)> {
        edges
            .iter()
            .map(|t| log_cdf_sf(*t, m, sigma, batches))
            .collect()
    };
    let (ends_p, ends_q) = (ends(mp), ends(mq));
    // ln of the mass of (a, b]: F(b) - F(a) below the median, S(a) - S(b) above it (an
    // inversion by rounding is an empty bin).
    let log_mass = |a: (f64, f64), b: (f64, f64)| {
        let l = if b.0 < -std::f64::consts::LN_2 {
            log_sub_exp(b.0, a.0)
        } else {
            log_sub_exp(a.1, b.1)
        };
        if l.is_nan() { f64::NEG_INFINITY } else { l }
    };
    // (loss, P mass) of the bins with P mass; Q mass 0 is loss +inf: dropped (rounded down).
    let mut cells: Vec<(f64, f64)> = (0..edges.len() - 1)
        .filter_map(|i| {
            let lp = log_mass(ends_p[i], ends_p[i + 1]);
            let lq = log_mass(ends_q[i], ends_q[i + 1]);
            let (p, loss) = (lp.exp(), lp - lq);
            (p > 0.0 && loss.is_finite()).then_some((loss, p))
        })
        .collect();
    cells.sort_by(|a, b| a.0.total_cmp(&b.0));
    let tau = opts.tail_mass;
    let mut below = 0.0;
    let first = cells
        .iter()
        .position(|c| {
            below += c.1;
            below > tau
        })
        .unwrap_or(cells.len());
    let mut above = 0.0;
    let top = cells
        .iter()
        .rposition(|c| {
            above += c.1;
            above > tau
        })
        .unwrap_or(0);
    if cells.is_empty() || first > top {
        return Err(ParamError::new(
            "sigma",
            sigma,
            "a noise multiplier whose epoch losses are finite doubles",
        ));
    }
    let d = opts.interval;
    let index = |l: f64| ((l - 1e-9 * l.abs().max(1.0)) / d).floor();
    let (low, high) = (cells[first].0, cells[top].0);
    let (k_lo, k_hi) = (index(low), index(high));
    let limit = opts.max_points.min(MAX_FFT);
    let points = k_hi - k_lo + 1.0;
    if !(points <= limit as f64 && k_lo.abs().max(k_hi.abs()) < 2f64.powi(53)) {
        return Err(ParamError::too_fine(
            d,
            format!(
                "one epoch's losses span [{low:.6e}, {high:.6e}]: {points:.0} grid points, at most {limit}"
            ),
        ));
    }
    let mut pmf = vec![0.0; points as usize];
    for (l, p) in &cells[first..] {
        // Above the top kept loss: lowered to it.
        pmf[(index(*l).min(k_hi) - k_lo) as usize] += p;
    }
    Ok(Pld::exact(d, k_lo as i64, pmf, 0.0, Rounding::Optimistic))
}

/// A certified lower bound on $\epsilon(\delta)$ of `epochs` shuffled epochs of `batches`
/// batches with noise multiplier `sigma`, replace-one: the maximum statistic of the worst
/// pair [`REPLACE_ONE_WORST`], the larger over both orders.
pub fn lower_epsilon(
    batches: u64,
    sigma: f64,
    epochs: u64,
    delta: f64,
    opts: &PldOptions,
) -> Result<f64, ParamError> {
    super::check_delta(delta)?;
    Ok(lower_plds(batches, sigma, epochs, opts)?
        .iter()
        .map(|p| p.epsilon(delta))
        .fold(0.0, f64::max))
}

/// The `epochs`-fold optimistic compositions of the maximum statistic's PLD of the worst pair
/// [`REPLACE_ONE_WORST`], in the order $(F_2,F_0)$ then $(F_0,F_2)$: the largest of their
/// $\delta(\epsilon)$ is a certified lower bound on the shuffled mechanism's.
pub fn lower_plds(
    batches: u64,
    sigma: f64,
    epochs: u64,
    opts: &PldOptions,
) -> Result<Vec<Pld>, ParamError> {
    at_least("epochs", epochs, 1)?;
    let (u, v) = REPLACE_ONE_WORST;
    [(u, v), (v, u)]
        .iter()
        .map(|&means| {
            let one = max_statistic_pld(batches, sigma, means, opts)?;
            // The composition indexes losses up to epochs x the largest index, in an i64.
            let reach = (one.offset.unsigned_abs() + one.pmf.len() as u64) as f64 * epochs as f64;
            if reach >= 2f64.powi(62) {
                return Err(ParamError::too_fine(
                    opts.interval,
                    format!("{epochs} epochs reach grid index {reach:.3e}, past 2^62"),
                ));
            }
            one.compose(epochs, opts)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numerics::log_add_exp;
    use crate::privacy::gaussian;

    /// $\ln$ of the density of the maximum of independent $\mathcal N(\mu_j,\sigma^2)$:
    /// $\sum_j\ln\Phi(x_j)+\ln\sum_j\varphi(x_j)/\Phi(x_j)-\ln\sigma$, $x_j=(t-\mu_j)/\sigma$.
    fn log_max_density(t: f64, means: &[f64], sigma: f64) -> f64 {
        let ln_phi = |x: f64| -0.5 * x * x - 0.5 * (2.0 * std::f64::consts::PI).ln();
        let (mut cdf, mut hazard) = (0.0, f64::NEG_INFINITY);
        for m in means {
            let x = (t - m) / sigma;
            let lc = log_norm_cdf(x);
            cdf += lc;
            hazard = log_add_exp(hazard, ln_phi(x) - lc);
        }
        cdf + hazard - sigma.ln()
    }

    /// A law of $M$ that is a mixture (weights, batch means) on a grid: its log densities.
    type Mixture = Vec<(f64, Vec<f64>)>;

    fn log_densities(law: &Mixture, ts: &[f64], sigma: f64) -> Vec<f64> {
        ts.iter()
            .map(|&t| {
                law.iter()
                    .map(|(w, m)| w.ln() + log_max_density(t, m, sigma))
                    .fold(f64::NEG_INFINITY, log_add_exp)
            })
            .collect()
    }

    /// A fine grid of `n` (odd) points on [lo, hi] and its Simpson weights.
    fn simpson(lo: f64, hi: f64, n: usize) -> (Vec<f64>, Vec<f64>) {
        let h = (hi - lo) / (n - 1) as f64;
        let ts = (0..n).map(|i| lo + i as f64 * h).collect();
        let ws = (0..n)
            .map(|i| {
                h / 3.0
                    * if i == 0 || i == n - 1 {
                        1.0
                    } else if i % 2 == 1 {
                        4.0
                    } else {
                        2.0
                    }
            })
            .collect();
        (ts, ws)
    }

    /// $\delta(\epsilon)=\int(p-e^\epsilon q)_+$ by Simpson's rule, from log densities.
    fn quad_delta(lp: &[f64], lq: &[f64], ws: &[f64], eps: f64) -> f64 {
        lp.iter()
            .zip(lq)
            .zip(ws)
            .map(|((p, q), w)| w * (p.exp() * -(eps - (p - q)).min(0.0).exp_m1()))
            .sum()
    }

    /// $\epsilon(\delta)$ of the pair by bisection of the quadrature's $\delta(\epsilon)$.
    fn quad_epsilon(lp: &[f64], lq: &[f64], ws: &[f64], delta: f64) -> f64 {
        if quad_delta(lp, lq, ws, 0.0) <= delta {
            return 0.0;
        }
        let (mut lo, mut hi) = (0.0, 1000.0);
        for _ in 0..100 {
            let mid = 0.5 * (lo + hi);
            if quad_delta(lp, lq, ws, mid) > delta {
                lo = mid
            } else {
                hi = mid
            }
        }
        0.5 * (lo + hi)
    }

    /// The record's batch at `u`, the other `k - 1` at 0.
    fn homogeneous(k: u64, u: f64) -> Mixture {
        let mut m = vec![0.0; k as usize];
        m[0] = u;
        vec![(1.0, m)]
    }

    /// Exact epsilon of the max statistic of `(u, v)` at `k` batches, both orders' maximum.
    fn exact_epsilon(k: u64, sigma: f64, (u, v): (f64, f64), delta: f64) -> f64 {
        let (ts, ws) = simpson(-12.0 * sigma - 0.5, 2.0 + 12.0 * sigma + 0.5, 60_001);
        let lp = log_densities(&homogeneous(k, u), &ts, sigma);
        let lq = log_densities(&homogeneous(k, v), &ts, sigma);
        quad_epsilon(&lp, &lq, &ws, delta).max(quad_epsilon(&lq, &lp, &ws, delta))
    }

    /// Issue 32, item 3: for k = 2 and 3, one epoch, delta = 1e-5, the lower reference is at
    /// or below the exact epsilon of its pair (the maximum statistic of (2, 0), both orders,
    /// by Simpson quadrature of its density here) and within the grid's error of it: the loss
    /// grid's spacing (1e-4).
    /// The issue's numbers are pinned: 23.69 at k = 2, sigma = 0.5 (exact 23.688464); the old
    /// pair (1, -1) gave 14.247002 and 43.464991 (k = 2, sigma 0.5 and 0.2).
    #[test]
    fn lower_reference_matches_quadrature_of_its_pair() {
        let opts = PldOptions::default();
        for (k, sigma) in [(2u64, 0.5), (2, 0.2), (2, 1.5), (3, 0.5), (3, 1.0)] {
            let exact = exact_epsilon(k, sigma, REPLACE_ONE_WORST, 1e-5);
            let lower = lower_epsilon(k, sigma, 1, 1e-5, &opts).unwrap();
            // Measured 5.0e-5 below at every case here (the loss grid's spacing is 1e-4; the
            // binning of M, a post-processing, adds less than that at 40 000 bins).
            let grid_error = opts.interval;
            assert!(
                lower <= exact + 1e-7 && lower >= exact - grid_error,
                "k {k} sigma {sigma}: lower {lower}, exact {exact}, grid error {grid_error}"
            );
        }
        let issue = exact_epsilon(2, 0.5, REPLACE_ONE_WORST, 1e-5);
        assert!((issue - 23.688464).abs() < 1e-5, "{issue}");
        for (sigma, old) in [(0.5, 14.247002), (0.2, 43.464991)] {
            let e = exact_epsilon(2, sigma, (1.0, -1.0), 1e-5);
            assert!((e - old).abs() < 1e-5, "sigma {sigma}: {e} vs {old}");
        }
    }

    /// Log densities of laws of M on one grid, memoised by the batch means (the laws of the
    /// searches below share them): Simpson's rule on [-4 - 10 sigma, 4 + 10 sigma].
    struct Densities {
        sigma: f64,
        ts: Vec<f64>,
        ws: Vec<f64>,
        memo: std::collections::HashMap<Vec<u64>, Vec<f64>>,
    }

    impl Densities {
        fn new(sigma: f64, n: usize) -> Self {
            let (ts, ws) = simpson(-4.0 - 10.0 * sigma, 4.0 + 10.0 * sigma, n);
            Self {
                sigma,
                ts,
                ws,
                memo: Default::default(),
            }
        }

        fn of(&mut self, law: &Mixture) -> Vec<f64> {
            let mut total = vec![f64::NEG_INFINITY; self.ts.len()];
            for (w, m) in law {
                let key = m.iter().map(|x| x.to_bits()).collect();
                let (ts, sigma) = (&self.ts, self.sigma);
                let one = self
                    .memo
                    .entry(key)
                    .or_insert_with(|| ts.iter().map(|&t| log_max_density(t, m, sigma)).collect());
                for (a, b) in total.iter_mut().zip(one.iter()) {
                    *a = log_add_exp(*a, w.ln() + b);
                }
            }
            total
        }

        /// delta(eps) of the max statistic's pair (P, Q) at each of `epsilons`.
        fn deltas(&mut self, law_p: &Mixture, law_q: &Mixture, epsilons: &[f64]) -> Vec<f64> {
            let (lp, lq) = (self.of(law_p), self.of(law_q));
            epsilons
                .iter()
                .map(|&e| quad_delta(&lp, &lq, &self.ws, e))
                .collect()
        }
    }

    /// The pair of `set` with the largest delta above `claimed`'s, at any of the epsilons (and
    /// by how much), over a grid of step 0.25 and both orders: None if `claimed` dominates.
    fn search_homogeneous(
        k: u64,
        sigma: f64,
        claimed: (f64, f64),
        in_set: impl Fn(f64, f64) -> bool,
    ) -> Option<((f64, f64), f64)> {
        let epsilons = [0.0, 0.5, 1.0, 2.0, 4.0];
        let mut dens = Densities::new(sigma, 8_001);
        let (u, v) = claimed;
        let worst: Vec<Vec<f64>> = [(u, v), (v, u)]
            .iter()
            .map(|&(a, b)| dens.deltas(&homogeneous(k, a), &homogeneous(k, b), &epsilons))
            .collect();
        let grid: Vec<f64> = (-8..=8).map(|i| i as f64 * 0.25).collect();
        let mut found: Option<((f64, f64), f64)> = None;
        for &a in &grid {
            for &b in &grid {
                if !in_set(a, b) {
                    continue;
                }
                let d = dens.deltas(&homogeneous(k, a), &homogeneous(k, b), &epsilons);
                // The forward order is compared with the claimed forward pair, the reverse
                // with its reverse (the theorem's statement).
                let w = if a >= b { &worst[0] } else { &worst[1] };
                let excess = d
                    .iter()
                    .zip(w)
                    .map(|(x, y)| x - y)
                    .fold(f64::NEG_INFINITY, f64::max);
                if excess > 1e-9 && found.is_none_or(|f| excess > f.1) {
                    found = Some(((a, b), excess));
                }
            }
        }
        found
    }

    fn replace_one(u: f64, v: f64) -> bool {
        u.abs() <= 2.0 && v.abs() <= 2.0 && (u - v).abs() <= 2.0
    }

    fn add_remove(u: f64, v: f64) -> bool {
        (u - v).abs() <= 1.0 && v.abs() <= 1.0
    }

    /// The theorem of the module doc against an adversarial search over the pairs of the
    /// replace-one set R and of the add/remove set (grid step 0.25, both orders, k = 2, 3, 10):
    /// no pair has a larger delta at any tested epsilon than the claimed worst one. Mutants: the
    /// old pair (1, -1), (2, 0) claimed for add/remove (it is not realisable there, so (2, 1)
    /// must be the answer and the search must still find pairs above (1, 0)) and (1.5, 0) are
    /// caught.
    #[test]
    fn worst_pair_dominates_the_realisable_set() {
        for (k, sigma) in [(2u64, 0.5), (3, 1.0), (10, 0.8)] {
            let r = search_homogeneous(k, sigma, REPLACE_ONE_WORST, replace_one);
            assert!(r.is_none(), "k {k} sigma {sigma}: replace-one: {r:?}");
            let r = search_homogeneous(k, sigma, ADD_REMOVE_WORST, add_remove);
            assert!(r.is_none(), "k {k} sigma {sigma}: add/remove: {r:?}");
        }
        for (claimed, set) in [
            ((1.0, -1.0), replace_one as fn(f64, f64) -> bool),
            ((1.5, 0.0), replace_one),
            ((1.0, 0.0), add_remove),
        ] {
            let r = search_homogeneous(2, 0.5, claimed, set);
            assert!(r.is_some(), "the mutant {claimed:?} was not caught");
        }
    }

    /// The law of M for a configuration of the other records (1-D gradients `others`, the
    /// record's `x`), `batches` batches of `batch`: a mixture over every placement of the
    /// others in the record's batch and the rest (the maximum is symmetric in the batches).
    fn configuration_law(batches: usize, batch: usize, x: f64, others: &[f64]) -> Mixture {
        fn permutations(
            items: &[f64],
            out: &mut Vec<Vec<f64>>,
            cur: &mut Vec<f64>,
            used: &mut Vec<bool>,
        ) {
            if cur.len() == items.len() {
                out.push(cur.clone());
                return;
            }
            for i in 0..items.len() {
                if !used[i] {
                    used[i] = true;
                    cur.push(items[i]);
                    permutations(items, out, cur, used);
                    cur.pop();
                    used[i] = false;
                }
            }
        }
        let mut perms = Vec::new();
        permutations(
            others,
            &mut perms,
            &mut Vec::new(),
            &mut vec![false; others.len()],
        );
        let mut laws: Vec<(Vec<f64>, f64)> = Vec::new();
        for p in &perms {
            let mut sums = vec![x + p[..batch - 1].iter().sum::<f64>()];
            for j in 0..batches - 1 {
                let start = batch - 1 + j * batch;
                sums.push(p[start..start + batch].iter().sum());
            }
            sums.sort_by(f64::total_cmp);
            match laws.iter_mut().find(|(m, _)| *m == sums) {
                Some((_, c)) => *c += 1.0,
                None => laws.push((sums, 1.0)),
            }
        }
        let total = perms.len() as f64;
        laws.into_iter().map(|(m, c)| (c / total, m)).collect()
    }

    /// Other records not all equal (batches of b >= 2: the record's batch-mates are random, the
    /// proof does not cover it): every configuration of 1-D gradients on a grid, at n = 4
    /// (k = 2, b = 2; gradients in {-1, -1/2, 0, 1/2, 1}) and n = 6 (k = 3, b = 2 and k = 2,
    /// b = 3; in {-1, 0, 1}), both orders, has delta at most that of every other record at -C
    /// and the record +C against -C (shifted by bC: the pair (2, 0)) at every tested epsilon.
    /// A mutant (the old configuration, all others at 0 and the record at +-C) is exceeded.
    #[test]
    fn search_finds_nothing_worse() {
        let epsilons = [0.0, 1.0, 2.0, 4.0];
        for (k, b, grid, sigma) in [
            (2usize, 2usize, vec![-1.0, -0.5, 0.0, 0.5, 1.0], 0.5),
            (3, 2, vec![-1.0, 0.0, 1.0], 1.0),
            (2, 3, vec![-1.0, 0.0, 1.0], 0.7),
        ] {
            let n_others = k * b - 1;
            let mut dens = Densities::new(sigma, 8_001);
            let worst_law = |x: f64| configuration_law(k, b, x, &vec![-1.0; n_others]);
            let worst = [
                dens.deltas(&worst_law(1.0), &worst_law(-1.0), &epsilons),
                dens.deltas(&worst_law(-1.0), &worst_law(1.0), &epsilons),
            ];
            let best = |d: &[f64]| {
                worst
                    .iter()
                    .map(|w| {
                        d.iter()
                            .zip(w)
                            .map(|(a, b)| a - b)
                            .fold(f64::NEG_INFINITY, f64::max)
                    })
                    .fold(f64::INFINITY, f64::min)
            };
            // Every multiset of the others (non-decreasing sequences over the grid).
            let mut configs = vec![vec![]];
            for _ in 0..n_others {
                configs = configs
                    .into_iter()
                    .flat_map(|c: Vec<usize>| {
                        let start = c.last().copied().unwrap_or(0);
                        (start..grid.len()).map(move |i| {
                            let mut c = c.clone();
                            c.push(i);
                            c
                        })
                    })
                    .collect();
            }
            let mut old_excess = f64::NEG_INFINITY;
            for c in &configs {
                let others: Vec<f64> = c.iter().map(|&i| grid[i]).collect();
                for &x in &grid {
                    for &x2 in &grid {
                        if x == x2 {
                            continue;
                        }
                        let d = dens.deltas(
                            &configuration_law(k, b, x, &others),
                            &configuration_law(k, b, x2, &others),
                            &epsilons,
                        );
                        let excess = best(&d);
                        assert!(
                            excess <= 1e-9,
                            "k {k} b {b}: others {others:?}, record {x} vs {x2}: delta above the worst by {excess}"
                        );
                    }
                }
            }
            // The mutant: the old configuration, claimed worst, is exceeded by the worst one.
            let old = |x: f64| configuration_law(k, b, x, &vec![0.0; n_others]);
            for (p, q) in [(1.0, -1.0), (-1.0, 1.0)] {
                let d = dens.deltas(&old(p), &old(q), &epsilons);
                let w = &worst[0];
                old_excess = old_excess.max(
                    w.iter()
                        .zip(&d)
                        .map(|(a, b)| a - b)
                        .fold(f64::NEG_INFINITY, f64::max),
                );
            }
            assert!(
                old_excess > 1e-3,
                "k {k} b {b}: the old configuration is not exceeded ({old_excess})"
            );
        }
    }

    /// Over E = 2, 3 epochs the adversary may mix the orders epoch by epoch: the composition of
    /// e forward epochs (F_2, F_0) and E - e reversed ones has its largest epsilon at e = E or
    /// e = 0 (the two the reference reports), here always at e = E.
    #[test]
    fn mixed_orders_are_no_better() {
        let opts = PldOptions {
            interval: 1e-3,
            ..PldOptions::default()
        };
        for (k, sigma) in [(2u64, 0.5), (5, 1.0), (20, 3.0)] {
            let (u, v) = REPLACE_ONE_WORST;
            let fwd = max_statistic_pld(k, sigma, (u, v), &opts).unwrap();
            let rev = max_statistic_pld(k, sigma, (v, u), &opts).unwrap();
            for epochs in [2usize, 3] {
                let eps: Vec<f64> = (0..=epochs)
                    .map(|e| {
                        let mut all = vec![&fwd; e];
                        all.extend(vec![&rev; epochs - e]);
                        let mut c = all[0].clone();
                        for p in &all[1..] {
                            c = c.convolve(p, 0.0).unwrap();
                        }
                        c.epsilon(1e-5)
                    })
                    .collect();
                let ends = eps[0].max(eps[epochs]);
                assert!(
                    eps.iter().all(|&e| e <= ends + 1e-9),
                    "k {k} sigma {sigma} E {epochs}: {eps:?}"
                );
            }
        }
    }

    /// The whole epoch (what the Monte Carlo simulates), k = 3, by quadrature on a 3-D grid
    /// (61 points a side): every pair (u, v) of R on a grid of step 1/2 other than (2, 0) and its
    /// mirror image (-2, 0) (y -> -y maps (u, v) to (-u, -v)) has a smaller delta at the
    /// epsilon of (2, 0) (the larger order), so a smaller epsilon. The old pair (1, -1) is
    /// far below it (mutant: claimed worst, it is exceeded).
    #[test]
    fn whole_epoch_boundary_is_worst_at_two_zero() {
        let (sigma, delta, n) = (1.0f64, 1e-3, 61usize);
        let (lo, hi) = (-2.0 - 6.0 * sigma, 2.0 + 6.0 * sigma);
        let h = (hi - lo) / (n - 1) as f64;
        let g: Vec<f64> = (0..n).map(|i| lo + i as f64 * h).collect();
        let mut points = Vec::with_capacity(n * n * n);
        for &a in &g {
            for &b in &g {
                for &c in &g {
                    let base = -(a * a + b * b + c * c) / (2.0 * sigma * sigma)
                        + 3.0 * (h.ln() - 0.5 * (2.0 * std::f64::consts::PI * sigma * sigma).ln());
                    points.push(([a, b, c], base));
                }
            }
        }
        // ln p(y) (cell mass) of the pair's law with the record's batch at u:
        // base + ln (1/3) sum_J exp((u y_J - u^2/2)/sigma^2).
        let law = |u: f64| -> Vec<f64> {
            points
                .iter()
                .map(|(y, base)| {
                    base + y
                        .iter()
                        .map(|&yj| (u * yj - 0.5 * u * u) / (sigma * sigma))
                        .fold(f64::NEG_INFINITY, log_add_exp)
                        - 3f64.ln()
                })
                .collect()
        };
        let grid: Vec<f64> = (-4..=4).map(|i| i as f64 * 0.5).collect();
        let laws: Vec<Vec<f64>> = grid.iter().map(|&u| law(u)).collect();
        let at = |u: f64| &laws[(2.0 * u + 4.0) as usize];
        let ws = vec![1.0; points.len()];
        let worst = quad_epsilon(at(2.0), at(0.0), &ws, delta).max(quad_epsilon(
            at(0.0),
            at(2.0),
            &ws,
            delta,
        ));
        for &u in &grid {
            for &v in &grid {
                if replace_one(u, v) && u != v && (u, v) != (2.0, 0.0) && (u, v) != (-2.0, 0.0) {
                    let d = quad_delta(at(u), at(v), &ws, worst);
                    assert!(
                        d < delta,
                        "({u}, {v}): delta {d} at the worst's epsilon {worst}"
                    );
                }
            }
        }
        let old = quad_epsilon(at(1.0), at(-1.0), &ws, delta);
        assert!(old < worst - 1.0, "the old pair: {old} against {worst}");
    }

    /// One batch per epoch: M = y is the Gaussian mechanism with sensitivity 2, whose exact
    /// epsilon the lower reference must approach from below.
    #[test]
    fn one_batch_is_the_gaussian_mechanism() {
        let opts = PldOptions::default();
        for (sigma, epochs) in [(2.0, 1u64), (3.0, 4)] {
            let exact = gaussian::epsilon(2.0 * (epochs as f64).sqrt() / sigma, 1e-5).unwrap();
            let lower = lower_epsilon(1, sigma, epochs, 1e-5, &opts).unwrap();
            assert!(
                lower <= exact + 1e-9 && lower >= exact - 0.01,
                "{lower} vs {exact}"
            );
        }
    }

    /// More batches hide the record better: the lower reference decreases with k and stays
    /// below the position-revealed Gaussian upper reference.
    #[test]
    fn more_batches_lower_the_reference() {
        let opts = PldOptions::default();
        let upper = gaussian::epsilon(2.0 * 2f64.sqrt() / 0.9, 1e-5).unwrap();
        let (a, b) = (
            lower_epsilon(5, 0.9, 2, 1e-5, &opts).unwrap(),
            lower_epsilon(50, 0.9, 2, 1e-5, &opts).unwrap(),
        );
        assert!(b < a && a < upper, "{b} < {a} < {upper}");
        assert!(b > 0.0);
    }

    /// $\epsilon(\delta)$ of the test $M>c$ of the pair $(2,0)$, from below:
    /// $P(M>c)\ge\Phi((2-c)/\sigma)$ (the record's batch alone) and
    /// $Q(M>c)\le k\bar\Phi(c/\sigma)$ (union bound), and
    /// $\epsilon(\delta)\ge\ln\frac{P(M>c)-\delta}{Q(M>c)}$ for a two-point pair.
    fn threshold_test_epsilon(batches: u64, sigma: f64, c: f64, delta: f64) -> f64 {
        let p = log_norm_cdf((2.0 - c) / sigma).exp();
        let log_q = (batches as f64).ln() + log_norm_cdf(-c / sigma);
        if p > delta {
            (p - delta).ln() - log_q
        } else {
            0.0
        }
    }

    /// Issue 33: at small sigma the loss of the largest batch output is hundreds of nats, where
    /// Q's bin masses underflow as numbers (sigma 0.03 panicked on a cell count from an infinite
    /// loss, 0.02 gave 0). The reference stays below the Gaussian upper reference and above
    /// the threshold tests of M (post-processings of it), epoch by epoch and composed.
    #[test]
    fn small_sigma_sits_between_threshold_tests_and_the_gaussian() {
        for (batches, sigma, epochs, interval) in [
            (2u64, 0.03, 1u64, 1e-3),
            (2, 0.02, 1, 1e-3),
            (50, 0.05, 1, 1e-3),
            (2, 0.005, 1, 1e-2),
            (4, 0.02, 3, 1e-2),
        ] {
            let opts = PldOptions {
                interval,
                ..PldOptions::default()
            };
            let delta = 1e-5;
            let lower = lower_epsilon(batches, sigma, epochs, delta, &opts).unwrap();
            let upper = gaussian::epsilon(2.0 * (epochs as f64).sqrt() / sigma, delta).unwrap();
            let test = [1.5, 1.9, 2.0]
                .map(|c| threshold_test_epsilon(batches, sigma, c, delta))
                .into_iter()
                .fold(0.0, f64::max);
            assert!(
                0.99 * test <= lower && lower <= upper,
                "k {batches} sigma {sigma} E {epochs}: {test} <= {lower} <= {upper}"
            );
        }
    }

    /// Losses too far apart for the point budget, or too large for the grid's indices, are an
    /// error a coarser grid may cure (never an allocation of the span).
    #[test]
    fn too_fine_grids_are_refused() {
        let small = PldOptions {
            max_points: 1000,
            ..PldOptions::default()
        };
        let coarse = PldOptions {
            interval: 1.0,
            ..PldOptions::default()
        };
        for (sigma, opts) in [(0.02, small), (1e-9, PldOptions::default()), (1e-9, coarse)] {
            match lower_plds(2, sigma, 1, &opts) {
                Err(e) => assert!(e.is_too_fine(), "sigma {sigma}: {e}"),
                Ok(_) => panic!("sigma {sigma} at interval {}: no error", opts.interval),
            }
        }
    }

    /// A mean outside the clipping ball's reach is refused.
    #[test]
    fn means_beyond_two_are_refused() {
        assert!(max_statistic_pld(2, 1.0, (2.5, 0.0), &PldOptions::default()).is_err());
        assert!(max_statistic_pld(2, 1.0, (0.0, f64::NAN), &PldOptions::default()).is_err());
    }
}
