//! The Gaussian mechanism's exact privacy profile (Balle & Wang 2018, Theorem 8).
//!
//! For sensitivity $\Delta$ and noise $\sigma$, with $\mu=\Delta/\sigma$,
//! $$\delta(\epsilon)=\Phi\Big(\frac\mu2-\frac\epsilon\mu\Big)-e^\epsilon\Phi\Big(-\frac\mu2-\frac\epsilon\mu\Big),$$
//! evaluated in log space so that tiny $\delta$ keep their exponent. $T$-fold composition is
//! the same with $\mu\sqrt T$.
//!
//! [`log_delta`], [`delta`] and [`epsilon`] are the plain floating-point values;
//! [`log_delta_bounds`] and [`epsilon_bracket`] are certified brackets on the exact ones, with
//! the rounding of every step accounted for (see [`log_delta_bounds`] for the error model).

use super::check_delta;
use crate::error::{ParamError, positive};
use crate::numerics::log_norm_cdf;

/// The error model of [`log_norm_cdf`]: the computed $\widehat{\ln\Phi}(x)$ is within
/// $2^{-40}(1+|\ln\Phi(x)|)$ of the exact value for every finite $x$, the rounding of the
/// argument $x$ itself (a few units in the last place, times $\mathrm d\ln\Phi/\mathrm dx\le|x|+1$)
/// included. About 8000 units in the last place: the measured error against mpmath references
/// is below $2^{-48}(1+|\ln\Phi|)$ (test `log_norm_cdf_meets_its_error_model`), so the model
/// holds with a margin of 256.
pub const LOG_NORM_CDF_ERROR: f64 = 1.0 / (1u64 << 40) as f64;

/// $\ln\delta(\epsilon)$ for $\mu>0$ and any finite $\epsilon$.
pub fn log_delta(mu: f64, epsilon: f64) -> Result<f64, ParamError> {
    positive("mu", mu)?;
    if !epsilon.is_finite() {
        return Err(ParamError::new("epsilon", epsilon, "a finite number"));
    }
    let a = log_norm_cdf(mu / 2.0 - epsilon / mu);
    let b = epsilon + log_norm_cdf(-mu / 2.0 - epsilon / mu);
    // delta = e^a (1 - e^(b - a)), b < a always.
    Ok(a + (-(b - a).min(0.0).exp_m1()).ln())
}

/// Certified bounds $[\ell,h]\ni\ln\delta(\epsilon)$ for every $\mu$ in $[\mu_-,\mu_+]$
/// ($0<\mu_-\le\mu_+$), the rounding of every step included.
///
/// With $a=\ln\Phi(\mu/2-\epsilon/\mu)$ and $b=\epsilon+\ln\Phi(-\mu/2-\epsilon/\mu)$,
/// $\ln\delta=a+\ln(1-e^{x})$ with $x=b-a<0$. By [`LOG_NORM_CDF_ERROR`] ($K$) the computed
/// $\hat a,\hat b$ satisfy $|\hat a-a|\le E_a=2K(1+|\hat a|)$ and
/// $|\hat b-b|\le E_b=2K(1+\epsilon+|\hat b|)$ (the factor 2 absorbs $|a|$ versus $|\hat a|$ and
/// the addition of $\epsilon$; $|\ln\Phi|=\epsilon-b\le\epsilon+|b|$). So $x$ lies within
/// $E=E_a+E_b+2^{-52}|\hat x|$ of $\hat x$, and since $\ln(1-e^x)$ decreases in $x$,
/// $$\hat a-E_a+\ln(1-e^{\hat x+E})\le\ln\delta\le\hat a+E_a+\ln(1-e^{\hat x-E}),$$
/// the left side $-\infty$ when $\hat x+E\ge0$; the lower end is also at least
/// $\ln\big((1-e^{-t})\Phi(\mu/2-(\epsilon+t)/\mu)\big)$ for $t=1$ and $t=\mu$ (no difference, so no
/// cancellation: what remains at huge $\mu$ or $\epsilon$). Each end is then moved outward by
/// $K(1+|\cdot|)$ for the rounding of `ln`, `exp_m1` and the additions. $\delta(\epsilon)$
/// increases with $\mu$ (the pair $\mathcal N(0,1)$, $\mathcal N(\mu,1)$ is a post-processing of
/// the pair at a larger $\mu$), so the lower end is taken at $\mu_-$ and the upper at $\mu_+$.
pub fn log_delta_bounds(mu_lo: f64, mu_hi: f64, epsilon: f64) -> Result<(f64, f64), ParamError> {
    Ok((
        log_delta_lower(mu_lo, mu_hi, epsilon)?,
        log_delta_upper(mu_lo, mu_hi, epsilon)?,
    ))
}

/// The checks of [`log_delta_bounds`]: $0<\mu_-\le\mu_+<\infty$ and a finite $\epsilon$.
fn check_bounds(mu_lo: f64, mu_hi: f64, epsilon: f64) -> Result<(), ParamError> {
    positive("mu", mu_lo)?;
    if !(mu_hi >= mu_lo && mu_hi.is_finite()) {
        return Err(ParamError::new(
            "mu",
            mu_hi,
            format!("a finite number >= {mu_lo}"),
        ));
    }
    if !epsilon.is_finite() {
        return Err(ParamError::new("epsilon", epsilon, "a finite number"));
    }
    Ok(())
}

/// The computed $\hat a$, its error bound $E_a$, $\hat x$ and $E$ of [`log_delta_bounds`] at $\mu$.
fn profile_terms(mu: f64, epsilon: f64) -> (f64, f64, f64, f64) {
    let k = LOG_NORM_CDF_ERROR;
    let a = log_norm_cdf(mu / 2.0 - epsilon / mu);
    let b = epsilon + log_norm_cdf(-mu / 2.0 - epsilon / mu);
    let (ea, eb) = (
        2.0 * k * (1.0 + a.abs()),
        2.0 * k * (1.0 + epsilon.abs() + b.abs()),
    );
    let x = b - a;
    let e = ea + eb + f64::EPSILON * x.abs();
    (a, ea, x, e)
}

/// `v` moved outward (`dir` = ±1) by $K(1+|v|)$.
fn outward(v: f64, dir: f64) -> f64 {
    v + dir * LOG_NORM_CDF_ERROR * (1.0 + v.abs())
}

/// The lower end of [`log_delta_bounds`] alone (at $\mu_-$).
pub fn log_delta_lower(mu_lo: f64, mu_hi: f64, epsilon: f64) -> Result<f64, ParamError> {
    check_bounds(mu_lo, mu_hi, epsilon)?;
    let k = LOG_NORM_CDF_ERROR;
    let (a, ea, x, e) = profile_terms(mu_lo, epsilon);
    let lower = if x + e >= 0.0 {
        f64::NEG_INFINITY
    } else {
        outward(a - ea + (-(x + e).exp_m1()).ln(), -1.0)
    };
    // Where the difference cancels beyond the error model (huge mu or eps: E >= |x|), a bound
    // without a difference: (1 - e^{eps - L})_+ >= (1 - e^{-t}) 1{L > eps + t} for t > 0, so
    // delta(eps) >= (1 - e^{-t}) Phi(mu/2 - (eps + t)/mu) (the loss is N(mu^2/2, mu^2)).
    let plain = [1.0, mu_lo]
        .into_iter()
        .fold(f64::NEG_INFINITY, |best: f64, t: f64| {
            let l = log_norm_cdf(mu_lo / 2.0 - (epsilon + t) / mu_lo);
            best.max(outward(
                l - 2.0 * k * (1.0 + l.abs()) + (-(-t).exp_m1()).ln(),
                -1.0,
            ))
        });
    Ok(lower.max(plain))
}

/// The upper end of [`log_delta_bounds`] alone (at $\mu_+$).
pub fn log_delta_upper(mu_lo: f64, mu_hi: f64, epsilon: f64) -> Result<f64, ParamError> {
    check_bounds(mu_lo, mu_hi, epsilon)?;
    let (a, ea, x, e) = profile_terms(mu_hi, epsilon);
    Ok(if x - e >= 0.0 {
        0.0 // no information beyond delta <= 1
    } else {
        outward(a + ea + (-(x - e).exp_m1()).ln(), 1.0).min(0.0)
    })
}

/// A certified bracket `(optimistic, pessimistic)` on $\epsilon(\delta)$ for every $\mu$ in $[\mu_-,\mu_+]$: the
/// optimistic end is a point where the lower bound of [`log_delta_bounds`] still exceeds
/// $\ln\delta$ (so the exact $\delta(\epsilon)$ does, and the exact $\epsilon(\delta)$ lies above it,
/// $\delta(\cdot)$ being non-increasing), or 0; the pessimistic end a point where the upper bound is
/// at most $\ln\delta$ (so the exact $\epsilon(\delta)$ lies at or below it). Each end is found by
/// bisection to adjacent floating-point numbers.
pub fn epsilon_bracket(mu_lo: f64, mu_hi: f64, delta: f64) -> Result<(f64, f64), ParamError> {
    check_delta(delta)?;
    let target = delta.ln();
    let upper = |e: f64| log_delta_bounds(mu_lo, mu_hi, e).map(|b| b.1);
    let lower = |e: f64| log_delta_bounds(mu_lo, mu_hi, e).map(|b| b.0);
    let pessimistic = if upper(0.0)? <= target {
        0.0
    } else {
        let mut hi = 1.0;
        while upper(hi)? > target {
            hi *= 2.0;
            if hi > 1e300 {
                return Err(ParamError::new(
                    "delta",
                    delta,
                    format!(
                        "a delta reached at an epsilon below 1e300 (mu = {mu_hi:e} needs more)"
                    ),
                ));
            }
        }
        bisect(0.0, hi, 0.0, &|e| Ok(upper(e)? <= target))?.1
    };
    // lower <= upper, so lower(pessimistic) <= target: the optimistic end lies in [0, pessimistic].
    let optimistic = if lower(0.0)? <= target {
        0.0
    } else {
        bisect(0.0, pessimistic, 0.0, &|e| Ok(lower(e)? <= target))?.0
    };
    Ok((optimistic, pessimistic))
}

/// Bisection on $[lo,hi]$ keeping `holds(lo)` false and `holds(hi)` true, down to adjacent
/// floating-point numbers or a relative width `rel` of `hi`: the last `(lo, hi)`.
pub(crate) fn bisect(
    mut lo: f64,
    mut hi: f64,
    rel: f64,
    holds: &dyn Fn(f64) -> Result<bool, ParamError>,
) -> Result<(f64, f64), ParamError> {
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi || hi - lo <= rel * hi {
            break;
        }
        if holds(mid)? { hi = mid } else { lo = mid }
    }
    Ok((lo, hi))
}

/// A certified bracket `(optimistic, pessimistic)` on $\delta(\epsilon)$ for every $\mu$ in $[\mu_-,\mu_+]$
/// ([`log_delta_bounds`], exponentiated and rounded outward; the pessimistic end at least the
/// smallest subnormal, the exact value being positive).
pub fn delta_bracket(mu_lo: f64, mu_hi: f64, epsilon: f64) -> Result<(f64, f64), ParamError> {
    let (lo, hi) = log_delta_bounds(mu_lo, mu_hi, epsilon)?;
    let lo = lo.exp() * (1.0 - f64::EPSILON);
    // The exact delta is positive (mu > 0): where its bound underflows, the smallest
    // subnormal, not 0, bounds it from above.
    let hi = (hi.exp() * (1.0 + f64::EPSILON)).clamp(f64::from_bits(1), 1.0);
    Ok((lo, hi))
}

/// $\delta(\epsilon)$.
pub fn delta(mu: f64, epsilon: f64) -> Result<f64, ParamError> {
    log_delta(mu, epsilon).map(f64::exp)
}

/// The smallest $\epsilon\ge0$ with $\delta(\epsilon)\le\delta$ (bisection to full precision).
pub fn epsilon(mu: f64, delta: f64) -> Result<f64, ParamError> {
    check_delta(delta)?;
    let target = delta.ln();
    if log_delta(mu, 0.0)? <= target {
        return Ok(0.0);
    }
    let mut hi = 1.0;
    while log_delta(mu, hi)? > target {
        hi *= 2.0;
        if hi > 1e12 {
            return Err(ParamError::new(
                "delta",
                delta,
                format!("a delta reached at an epsilon below 1e12 (mu = {mu:e} needs more)"),
            ));
        }
    }
    let mut lo = 0.0;
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if log_delta(mu, mid)? > target {
            lo = mid
        } else {
            hi = mid
        }
    }
    Ok(hi)
}

/// The largest $\mu$ whose profile satisfies $\delta(\epsilon)\le\delta$ (bisection on
/// $\ln\mu$; $\delta(\epsilon)$ increases with $\mu$).
pub fn mu(epsilon: f64, delta: f64) -> Result<f64, ParamError> {
    crate::error::non_negative("epsilon", epsilon)?;
    check_delta(delta)?;
    let target = delta.ln();
    let (mut lo, mut hi) = (1e-12_f64, 1.0_f64);
    while log_delta(hi, epsilon)? <= target {
        hi *= 2.0;
        if hi > 1e12 {
            return Err(ParamError::new("delta", delta, "a delta below 1"));
        }
    }
    if log_delta(lo, epsilon)? > target {
        return Err(ParamError::new(
            "delta",
            delta,
            "a delta reachable with mu >= 1e-12",
        ));
    }
    for _ in 0..200 {
        let mid = (lo * hi).sqrt();
        if mid <= lo || mid >= hi {
            break;
        }
        if log_delta(mid, epsilon)? <= target {
            lo = mid
        } else {
            hi = mid
        }
    }
    Ok(lo)
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    /// ACCOUNTING.md public reference values.
    #[test]
    fn reference_values() {
        for (mu, eps, d) in [
            (1.0, 0.0, 0.38292492),
            (1.0, 1.0, 0.12693674),
            (1.0, 2.0, 0.02092364),
            (3.0, 1.0, 0.78760074),
        ] {
            assert_relative_eq!(delta(mu, eps).unwrap(), d, max_relative = 5e-7); // 7 digits given
        }
        assert_relative_eq!(
            epsilon(1.0, 1e-5).unwrap(),
            4.3771780957,
            max_relative = 1e-9
        );
        // ACCOUNTING.md labels this "mu = 0.2 (sigma = 50, T = 10, q = 1)"; the value belongs to
        // mu = sqrt(T)/sigma = 0.0632 (mu = 0.2 gives 0.7255217509; mpmath, THEOREMS_NOTES.md).
        assert_relative_eq!(
            epsilon(10f64.sqrt() / 50.0, 1e-5).unwrap(),
            0.2068046256,
            max_relative = 1e-9
        );
        assert_relative_eq!(
            epsilon(0.2, 1e-5).unwrap(),
            0.7255217508577958,
            max_relative = 1e-9
        );
    }

    /// Far in the tail the exponent stays right (references: mpmath, mp.dps = 80).
    #[test]
    fn tiny_deltas_keep_their_exponent() {
        assert_relative_eq!(
            log_delta(1.0, 30.0).unwrap(),
            -442.84937808230364,
            max_relative = 1e-11
        );
        assert_relative_eq!(
            log_delta(0.5, 150.0).unwrap(),
            -44938.05093330072,
            max_relative = 1e-11
        );
        assert_eq!(delta(0.5, 150.0).unwrap(), 0.0); // underflows as a number, not as a logarithm
        // The certified bracket's upper end stays above the (positive) exact value: the
        // smallest subnormal, where it was 0.
        assert_eq!(
            delta_bracket(0.5, 0.5, 150.0).unwrap(),
            (0.0, f64::from_bits(1))
        );
    }

    /// [`LOG_NORM_CDF_ERROR`]'s model holds with a margin of 256: references by mpmath
    /// (mp.dps = 60), across the three branches of `log_norm_cdf`, their edges (x = ±5) and far
    /// tails.
    #[test]
    fn log_norm_cdf_meets_its_error_model() {
        for (x, want) in [
            (-10000.0, -50000010.129278915181),
            (-3000.5, -4501509.0504728647083),
            (-700.25, -245182.50162798669387),
            (-200.0, -20006.217280898190402),
            (-38.5, -745.69527029041108133),
            (-37.0, -689.0305855768905936),
            (-20.0, -203.91715537109726394),
            (-10.0, -53.231285150512470578),
            (-5.000001, -15.065003580493177239),
            (-5.0, -15.064998393988725736),
            (-4.999999, -15.064993207485241537),
            (-3.3, -7.6346161480711272938),
            (-1.0, -1.8410216450092635058),
            (-0.001, -0.69394538346696517879),
            (0.0, -0.69314718055994530942),
            (0.001, -0.6923496142726882434),
            (0.5, -0.36894641528865639307),
            (2.0, -0.023012909328963488465),
            (4.999999, -2.8665309968742151301e-7),
            (5.0, -2.8665161296376359338e-7),
            (5.000001, -2.8665012624753927568e-7),
            (8.0, -6.2209605742717860585e-16),
            (12.0, -1.7764821120776789977e-33),
            (37.5, 0.0),
            (40.0, 0.0),
            (-37.331706461678635, -701.36765146284118049),
            (-49.44055782528487, -1227.0044973528364956),
            (-14.434586887210237, -107.7719582090905113),
            (-54.92945993327201, -1513.5481037830175657),
            (-22.488259698531756, -256.8948117400495962),
            (-34.40177581611901, -596.19897955669192232),
            (-24.479498676740583, -303.74136410287484815),
            (-29.64480214363299, -443.71650708155779016),
            (-30.283656760024023, -462.88056753607867702),
            (-2.120351272957336, -4.0752353312316208898),
            (-44.37327247750898, -989.20573826384218471),
            (-16.07967443160875, -132.97829039633076636),
            (6.339625971990401, -1.1516181341190074392e-10),
            (-19.602793596775093, -196.03195464175442075),
            (8.3378573915044, -3.7824364531533407448e-17),
            (0.09279213340756343, -0.6218211536313559815),
            (-39.72734995678266, -793.73277830153374983),
        ] {
            let got = log_norm_cdf(x);
            let err = (got - want).abs() / (1.0 + f64::abs(want));
            assert!(
                err <= LOG_NORM_CDF_ERROR / 256.0,
                "x = {x}: {got} vs {want} (error {err:e})"
            );
        }
    }

    /// The certified brackets hold the exact values (mpmath, mp.dps = 80), including the hard
    /// cases (small mu, large eps / mu: delta is a difference of two nearly equal terms), are
    /// narrow, and a wrong mu (the add/remove mu under replace-one) is excluded.
    #[test]
    fn brackets_hold_the_exact_profile() {
        for (mu, eps, log_want) in [
            (1.0, 1.0, -2.064066446500390534493),
            (5.0, 3.0, -0.04934927982166031451633),
            (10.0, 20.0, -0.001972763152833675429424),
            (0.05, 1.0, -209.4138817471677041163),
            (0.2, 10.0, -1255.358616792042938925),
            (0.01, 0.3, -462.1798364190219798416),
            (0.001, 0.03, -464.6174091643044482979),
            (3.0, -1.0, -0.08135900423323532042094),
            (40.0, 600.0, -3.290947353533986841136e-7),
        ] {
            let (lo, hi) = log_delta_bounds(mu, mu, eps).unwrap();
            assert!(
                lo <= log_want && log_want <= hi,
                "mu {mu} eps {eps}: [{lo}, {hi}] vs {log_want}"
            );
            assert!(
                hi - lo < 1e-6 * (1.0 + f64::abs(log_want)),
                "mu {mu} eps {eps}: [{lo}, {hi}]"
            );
            let d = delta_bracket(mu, mu, eps).unwrap();
            let want = f64::exp(log_want);
            assert!(d.0 <= want && want <= d.1, "{d:?} vs {want}");
            // The mutant: twice the mu (replace-one's sensitivity 2 read as 1, or the reverse).
            let (lo2, hi2) = log_delta_bounds(2.0 * mu, 2.0 * mu, eps).unwrap();
            assert!(
                !(lo2 <= log_want && log_want <= hi2),
                "mu {mu} eps {eps}: mutant holds"
            );
        }
        for (mu, delta, want) in [
            (1.0, 1e-5, 4.377178095681224608554),
            (5.0, 1e-5, 33.10373233592246516225),
            (10.0, 1e-6, 96.7172719638676989441),
            (0.05, 1e-5, 0.160042034458132134773),
            (0.2, 1e-10, 1.181601308234247472539),
            (20.0, 0.644, 191.6080970834498835536),
        ] {
            let b = epsilon_bracket(mu, mu, delta).unwrap();
            assert!(
                b.0 <= want && want <= b.1,
                "mu {mu} delta {delta}: {b:?} vs {want}"
            );
            assert!(b.1 - b.0 < 1e-9 * want, "mu {mu} delta {delta}: {b:?}");
            let m = epsilon_bracket(2.0 * mu, 2.0 * mu, delta).unwrap();
            assert!(
                m.0 > want,
                "mu {mu} delta {delta}: mutant {m:?} holds {want}"
            );
        }
        // delta(0) = 2 Phi(mu / 2) - 1 below delta: epsilon is 0 (mpmath: 0).
        let b = epsilon_bracket(2e-3, 2e-3, 1e-3).unwrap();
        assert_eq!((b.0, b.1), (0.0, 0.0));
        // mu = 2^32 (2^64 runs at sigma 1): the difference cancels beyond the error model, the
        // plain lower bound keeps the optimistic end positive; eps ~ mu^2/2 + z mu (z = 4.265).
        let mu = 2f64.powi(32);
        let b = epsilon_bracket(mu, mu, 1e-5).unwrap();
        assert!(0.0 < b.0 && b.0 <= b.1, "{b:?}");
        let rough = mu * mu / 2.0 + 4.2649 * mu;
        assert!(
            (b.1 / rough - 1.0).abs() < 1e-9 && (b.0 / rough - 1.0).abs() < 1e-8,
            "{b:?}"
        );
        // A range of mu: the ends are those of its ends.
        let (wide, narrow) = (
            epsilon_bracket(0.9, 1.1, 1e-5).unwrap(),
            epsilon_bracket(1.0, 1.0, 1e-5).unwrap(),
        );
        assert!(wide.0 < narrow.0 && narrow.1 < wide.1);
        assert_eq!(log_delta_bounds(1.0, 0.5, 1.0).unwrap_err().name, "mu");
        assert_eq!(epsilon_bracket(1.0, 1.0, 1.0).unwrap_err().name, "delta");
    }

    #[test]
    fn rejects_bad_input() {
        assert_eq!(delta(0.0, 1.0).unwrap_err().name, "mu");
        assert_eq!(delta(1.0, f64::NAN).unwrap_err().name, "epsilon");
        assert_eq!(epsilon(1.0, 0.0).unwrap_err().name, "delta");
    }
}
