//! Composition and amplification for $(\epsilon,\delta)$ mechanisms.

use super::check_delta;
use crate::error::{ParamError, at_least, non_negative};

/// Advanced composition (Dwork, Rothblum & Vadhan 2010, Thm III.3): $k$ mechanisms, each
/// $(\epsilon,\delta)$-DP, compose to
/// $\big(\sqrt{2k\ln(1/\delta')}\thinspace\epsilon+k\epsilon(e^\epsilon-1),\ k\delta+\delta'\big)$.
pub fn advanced(
    epsilon: f64,
    delta: f64,
    k: u64,
    delta_prime: f64,
) -> Result<(f64, f64), ParamError> {
    non_negative("epsilon", epsilon)?;
    non_negative("delta", delta)?;
    at_least("k", k, 1)?;
    check_delta(delta_prime).map_err(|e| ParamError {
        name: "delta_prime".into(),
        ..e
    })?;
    let k = k as f64;
    Ok((
        (2.0 * k * (1.0 / delta_prime).ln()).sqrt() * epsilon + k * epsilon * epsilon.exp_m1(),
        k * delta + delta_prime,
    ))
}

/// The heterogeneous form used by seed 000, Proposition 5: steps with $(\epsilon_t,\cdot)$
/// compose to $\epsilon=\sqrt{2\ln(2/\delta)\sum_t\epsilon_t^2}+\sum_t\epsilon_t(e^{\epsilon_t}-1)$
/// (the per-step $\delta_t=\delta/(2t(t-1))$ summing with $\delta/2$ to at most $\delta$).
pub fn heterogeneous(epsilons: &[f64], delta: f64) -> Result<f64, ParamError> {
    check_delta(delta)?;
    crate::error::non_negative_elements("epsilon", epsilons)?;
    let sq: f64 = epsilons.iter().map(|e| e * e).sum();
    let lin: f64 = epsilons.iter().map(|e| e * e.exp_m1()).sum();
    Ok((2.0 * (2.0 / delta).ln() * sq).sqrt() + lin)
}

/// Amplification by sampling $m$ of $n$ without replacement, replace-one (Balle, Barthe &
/// Gaboardi 2018, Thm 9): $(\epsilon,\delta)\mapsto(\ln(1+\frac mn(e^\epsilon-1)),\frac mn\delta)$.
/// The same map with $q$ for Poisson sampling under add/remove (their Thm 8).
pub fn amplify(epsilon: f64, delta: f64, rate: f64) -> Result<(f64, f64), ParamError> {
    non_negative("epsilon", epsilon)?;
    non_negative("delta", delta)?;
    if !(rate > 0.0 && rate <= 1.0) {
        return Err(ParamError::new("q", rate, "a sampling rate in (0, 1]"));
    }
    Ok(((rate * epsilon.exp_m1()).ln_1p(), rate * delta))
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    /// THEOREMS.md multipass reference: Prop. 5 with T = 1000, eps_1 = 0, eps_{s>=2} = 0.01,
    /// delta = 1e-5 gives 1.66205840.
    #[test]
    fn proposition5_reference() {
        let mut eps = vec![0.01; 1000];
        eps[0] = 0.0;
        assert_relative_eq!(
            heterogeneous(&eps, 1e-5).unwrap(),
            1.66205840,
            max_relative = 1e-8
        );
    }

    #[test]
    fn amplification_and_advanced() {
        let (e, d) = amplify(1.0, 1e-5, 0.01).unwrap();
        assert_relative_eq!(e, (0.01 * (1f64.exp() - 1.0)).ln_1p(), max_relative = 1e-15);
        assert_relative_eq!(d, 1e-7, max_relative = 1e-15);
        let (e, d) = advanced(0.1, 0.0, 100, 1e-5).unwrap();
        assert_relative_eq!(
            e,
            (200.0 * 1e5f64.ln()).sqrt() * 0.1 + 100.0 * 0.1 * 0.1f64.exp_m1(),
            max_relative = 1e-15
        );
        assert_eq!(d, 1e-5);
        assert_eq!(amplify(1.0, 0.0, 0.0).unwrap_err().name, "q");
        assert_eq!(advanced(1.0, 0.0, 1, 0.0).unwrap_err().name, "delta_prime");
    }
}
