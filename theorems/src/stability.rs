//! Stability of DP-SGD / SGLD (Algorithm 1 with one sample per step): Lemma 5 and
//! Proposition 2 of Ma, Marinov & Zhang (2022), *Dimension Independent Generalization of
//! DP-SGD for Overparameterized Smooth Convex Optimization*, arXiv 2206.01836 (seed 000).
//!
//! Notation: step sizes $\eta_1,\dots,\eta_t$; in the simulation the gradient step out of
//! $w_{s-1}$ has size $h_s$ and is followed by the contraction $c_s = 1-\lambda_s\eta_s$
//! ($s = 2,\dots,t$). Under indexing `idx-A` (as printed) $h_s=\eta_s$.

use crate::error::{ParamError, at_least, non_negative, step_sizes};

fn check_gn(g: f64, n: u64) -> Result<(), ParamError> {
    non_negative("G", g)?;
    at_least("n", n, 1)?;
    Ok(())
}

/// Lemma 5 as printed: $W_2(p_t,p_t')^2 \le 4G^2\big(\frac{t}{n^2}+\frac1n\big)\sum_{s\le t}\eta_s^2$,
/// where `eta` holds $\eta_1,\dots,\eta_t$ (so $t$ = `eta.len()`).
///
/// The proof bounds $\mathbb E\Vert w_t-w_t'\Vert^2$ under the synchronous coupling, which is what
/// dpclaims measures.
pub fn lemma5_bound(g: f64, n: u64, eta: &[f64]) -> Result<f64, ParamError> {
    check_gn(g, n)?;
    let eta = step_sizes("eta", eta)?;
    let t = eta.len() as f64;
    let nf = n as f64;
    let sum_sq: f64 = eta.iter().map(|e| e * e).sum();
    Ok(4.0 * g * g * (t / (nf * nf) + 1.0 / nf) * sum_sq)
}

/// Effective weights $a_s = h_s\prod_{r=s}^t|c_r|$ of the steps $s=2..t$ (index 0 is $s=2$).
fn effective_weights(h: &[f64], c: &[f64]) -> Result<Vec<f64>, ParamError> {
    if h.len() != c.len() {
        return Err(ParamError::new(
            "c",
            format!("{} values", c.len()),
            format!("{} values, one per gradient step", h.len()),
        ));
    }
    if !h.is_empty() {
        // t = 1: no gradient step yet, every weight sum is 0.
        step_sizes("h", h)?;
    }
    if let Some((i, x)) = c.iter().enumerate().find(|(_, x)| !x.is_finite()) {
        return Err(ParamError::new(
            format!("c[{}]", i + 2),
            x,
            "a finite number",
        ));
    }
    let mut a = vec![0.0; h.len()];
    let mut prod = 1.0;
    for s in (0..h.len()).rev() {
        prod *= c[s].abs();
        a[s] = h[s] * prod;
    }
    Ok(a)
}

/// Lemma 5, derived form (THEOREMS.md `stability.lemma5.derived`): with
/// $a_s=h_s\prod_{r=s}^t|c_r|$ for the gradient steps $s=2..t$ (sizes `h`, contractions `c`),
/// non-expansive per-sample gradient steps, $|c_s|\le1$ and i.i.d. uniform indices,
/// $$\mathbb E\Vert w_t-w_t'\Vert^2\le4G^2\Big[\tfrac1n\big(1-\tfrac1n\big)\textstyle\sum_sa_s^2+\big(\tfrac1n\sum_sa_s\big)^2\Big],$$
/// with equality on the linear instance P-lin when every $c_s\ge0$.
pub fn lemma5_derived_bound(g: f64, n: u64, h: &[f64], c: &[f64]) -> Result<f64, ParamError> {
    check_gn(g, n)?;
    let a = effective_weights(h, c)?;
    let nf = n as f64;
    let sum: f64 = a.iter().sum();
    let sum_sq: f64 = a.iter().map(|x| x * x).sum();
    Ok(4.0 * g * g * ((1.0 / nf) * (1.0 - 1.0 / nf) * sum_sq + (sum / nf).powi(2)))
}

/// The step-size condition used in the proof of Lemma 5, $\eta_s^2/(\eta_{s-1}^2-\eta_s^2)\le s$
/// for $s\ge2$. Returns $\max_{2\le s\le t}\eta_s^2/\big(s(\eta_{s-1}^2-\eta_s^2)\big)$, which is
/// $\le 1$ exactly when the condition holds ($+\infty$ when some $\eta_s\ge\eta_{s-1}$).
pub fn lemma5_step_condition(eta: &[f64]) -> Result<f64, ParamError> {
    let eta = step_sizes("eta", eta)?;
    let mut worst: f64 = 0.0;
    for s in 2..=eta.len() {
        let (prev, cur) = (eta[s - 2], eta[s - 1]);
        let gap = prev * prev - cur * cur;
        let r = if gap > 0.0 {
            cur * cur / (gap * s as f64)
        } else {
            f64::INFINITY
        };
        worst = worst.max(r);
    }
    Ok(worst)
}

/// Proposition 2 (measurable form): the generalization gap
/// $\mathbb E[\ell(w_t,\mathcal D)-\ell(w_t,S_n)]\le\frac{2G^2}{n}\sqrt{(n+t)\sum_{s\le t}\eta_s^2}$,
/// `eta` = $\eta_1..\eta_t$.
pub fn prop2_bound(g: f64, n: u64, eta: &[f64]) -> Result<f64, ParamError> {
    check_gn(g, n)?;
    let eta = step_sizes("eta", eta)?;
    let nf = n as f64;
    let sum_sq: f64 = eta.iter().map(|e| e * e).sum();
    Ok(2.0 * g * g / nf * ((nf + eta.len() as f64) * sum_sq).sqrt())
}

/// Exact generalization gap on P-lin ($\ell(w,s)=Gsw$, $s=\pm1$), derived
/// (`stability.prop2.lin`): $\mathrm{gap}\_t=\frac{G^2}{n}\sum_{s=2}^ta_s$ when every $c_s\ge0$.
pub fn prop2_lin_gap(g: f64, n: u64, h: &[f64], c: &[f64]) -> Result<f64, ParamError> {
    check_gn(g, n)?;
    if let Some((i, x)) = c.iter().enumerate().find(|(_, x)| **x < 0.0) {
        return Err(ParamError::new(
            format!("c[{}]", i + 2),
            x,
            "a contraction >= 0 (the formula needs c_s >= 0)",
        ));
    }
    let a = effective_weights(h, c)?;
    Ok(g * g / n as f64 * a.iter().sum::<f64>())
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    /// THEOREMS.md, stability reference values: P-lin, n = 100, G = 1, eta = 0.1, c = 1.
    #[test]
    fn plin_constant_step_reference_values() {
        for (t, exact, rhs, gap, p2) in [
            (50, 0.029008, 0.03, 0.049, 0.173205),
            (100, 0.078408, 0.08, 0.099, 0.282843),
            (400, 0.794808, 0.8, 0.399, 0.894427),
        ] {
            let eta = vec![0.1; t];
            let h = vec![0.1; t - 1];
            let c = vec![1.0; t - 1];
            assert_relative_eq!(
                lemma5_bound(1.0, 100, &eta).unwrap(),
                rhs,
                max_relative = 1e-12
            );
            assert_relative_eq!(
                lemma5_derived_bound(1.0, 100, &h, &c).unwrap(),
                exact,
                max_relative = 1e-12
            );
            assert_relative_eq!(
                prop2_lin_gap(1.0, 100, &h, &c).unwrap(),
                gap,
                max_relative = 1e-12
            );
            assert_relative_eq!(
                prop2_bound(1.0, 100, &eta).unwrap(),
                p2,
                max_relative = 5e-6
            ); // table has 6 digits
        }
    }

    /// THEOREMS.md, stability reference values: P-lin on Theorem 2's schedule (idx-A).
    #[test]
    fn plin_theorem2_schedule_reference_values() {
        let eta = crate::multipass::reference_n200().etas();
        for (t, exact, rhs, gap) in [
            (10, 1.66271e-5, 1.43806e-4, 4.20546e-4),
            (100, 2.10148e-5, 2.69796e-4, 1.31972e-3),
            (1000, 6.42116e-5, 1.25435e-3, 3.65862e-3),
            (2828, 1.44687e-4, 3.32537e-3, 5.81314e-3),
        ] {
            let h = &eta[1..t];
            let c: Vec<f64> = (1..t).map(|i| eta[i] / eta[i - 1]).collect();
            assert_relative_eq!(
                lemma5_bound(1.0, 200, &eta[..t]).unwrap(),
                rhs,
                max_relative = 5e-6
            );
            assert_relative_eq!(
                lemma5_derived_bound(1.0, 200, h, &c).unwrap(),
                exact,
                max_relative = 5e-6
            );
            assert_relative_eq!(
                prop2_lin_gap(1.0, 200, h, &c).unwrap(),
                gap,
                max_relative = 5e-6
            );
        }
        assert!(lemma5_step_condition(&eta).unwrap() <= 1.0);
    }

    #[test]
    fn constant_step_violates_the_proof_condition() {
        assert_eq!(lemma5_step_condition(&[0.1, 0.1]).unwrap(), f64::INFINITY);
        assert_eq!(lemma5_step_condition(&[0.1]).unwrap(), 0.0);
    }

    #[test]
    fn rejects_bad_input() {
        assert_eq!(lemma5_bound(1.0, 0, &[0.1]).unwrap_err().name, "n");
        assert_eq!(lemma5_bound(f64::NAN, 1, &[0.1]).unwrap_err().name, "G");
        assert_eq!(lemma5_bound(1.0, 1, &[]).unwrap_err().name, "eta");
        assert_eq!(
            prop2_bound(1.0, 1, &[0.1, -1.0]).unwrap_err().name,
            "eta[2]"
        );
        assert_eq!(
            lemma5_derived_bound(1.0, 2, &[0.1], &[]).unwrap_err().name,
            "c"
        );
    }
}
