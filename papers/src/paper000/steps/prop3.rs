//! Proof steps of seed 000: Proposition 3's proof, Lemma 6's and Proposition 5's cited results (Section 5.3).

use super::*;

pub(super) const LOG_CUBED: Mutant = Mutant {
    name: "ln-t-cubed",
    description: "bound side: ln t^3 in place of ln t^2",
};

pub(super) static PROP3_LOG_INEQ: StepClaim = StepClaim {
    info: ClaimInfo {
        id: "multipass.prop3.step.log_ineq",
        paper: PAPER,
        result: "Proposition 3's proof: 'in the derivation, we used t ln t^2 - (t-1) ln (t-1)^2 >= ln t^2' [as printed, proof step]",
        statement: "min over 2 <= t <= T of [t ln t^2 - (t-1) ln (t-1)^2] / ln t^2 >= 1 (the ratio tends to 1 + 1/ln t: tightest at large t)",
        mutants: &[LOG_CUBED],
        known_false: false,
        tautologies: &[],
        perturbation: None,
    },
    cases: || {
        [10u64, 10_000, 10_000_000]
            .iter()
            .map(|t| params! { "T" => t })
            .collect()
    },
    measure: |case, run| {
        let top = horizon(case, 2, 100_000_000)?;
        let power = if is(run, &LOG_CUBED) { 3.0 } else { 2.0 };
        let xlnx = |x: f64| if x > 0.0 { x * (x * x).ln() } else { 0.0 };
        let mut worst = f64::INFINITY;
        for t in 2..=top {
            let t = t as f64;
            worst = worst.min((xlnx(t) - xlnx(t - 1.0)) / (t.powf(power)).ln());
        }
        Ok(vec![computed(
            case.clone(),
            1.0,
            Relation::AtLeast,
            worst,
            64.0 * (top as f64).ln(),
            1.0,
        )])
    },
};

pub(super) const DELTA_WITHOUT_N: Mutant = Mutant {
    name: "per-step-delta-without-n",
    description: "measured side: the Gaussian mechanism's delta' = 0.5 delta/(t(t-1)) (the amplified delta'/n not undone)",
};

pub(super) static PROP3_COMPOSE: StepClaim = StepClaim {
    info: ClaimInfo {
        id: "multipass.prop3.step.compose",
        paper: PAPER,
        result: "Proposition 3's proof: Proposition 5 applied to the per-step levels eps_t of Lemma 6, then eps_t <= ln(1 + e/n) and ln(1 + x) <= x, gives Proposition 3's level [as printed; consistency]",
        statement: "sqrt(2 ln(2/delta) sum_t eps_t^2) + sum_t eps_t (e^{eps_t} - 1) <= sqrt(2 T ln(2/delta)) e/n + T e^2/n^2 with eps_t = Lemma 6 (printed) at eta = eta_t^2/eta_{t-1}, sigma^2 = (1 - eta_t^2/eta_{t-1}^2) beta0, delta_t = 0.5 delta/(t(t-1)), Theorem 2's schedule",
        mutants: &[DELTA_WITHOUT_N],
        known_false: false,
        tautologies: &[],
        perturbation: None,
    },
    cases: || {
        let mut v = Vec::new();
        for (n, delta, alpha) in [
            (100u64, 1e-3, 2.0),
            (200, 1e-3, 2.0),
            (200, 0.012, 2.0),
            (1000, 1e-5, 1.5),
            (1000, 1e-5, 2.0),
        ] {
            v.push(params! { "n" => n, "delta" => delta, "epsilon" => "n^-1/4", "alpha" => alpha, "eta0" => 1.0, "G" => 1.0 });
        }
        v
    },
    measure: |case, run| {
        let s = theorem2_schedule(case)?;
        let eta = s.etas();
        let (n, delta) = (s.n, s.delta);
        let (mut sum_sq, mut sum_lin) = (0.0, 0.0);
        for t in 2..=eta.len() {
            let (prev, cur) = (eta[t - 2], eta[t - 1]);
            let ratio = cur / prev;
            let sigma = ((1.0 - ratio * ratio) * s.beta0).sqrt();
            let tf = t as f64;
            let gauss_delta = if is(run, &DELTA_WITHOUT_N) {
                0.5 * delta / (tf * (tf - 1.0))
            } else {
                0.5 * n as f64 * delta / (tf * (tf - 1.0))
            };
            let (e, _) = lemma6_printed(cur * ratio, s.g, sigma, gauss_delta, n)?;
            sum_sq += e * e;
            sum_lin += e * e.exp_m1();
        }
        let composed = (2.0 * (2.0 / delta).ln() * sum_sq).sqrt() + sum_lin;
        let prop3 = dpclaims_theorems::multipass::prop3_epsilon(n, s.horizon, delta)?;
        let mut p = case.clone();
        p.set("T", s.horizon.into());
        Ok(vec![computed(
            p,
            prop3,
            Relation::AtMost,
            composed,
            eta.len() as f64 * 8.0,
            composed,
        )])
    },
};

pub(super) const BUDGET_DOUBLED: Mutant = Mutant {
    name: "per-step-delta-doubled",
    description: "measured side: per-step delta_t = delta/(t(t-1)) instead of 0.5 delta/(t(t-1))",
};

pub(super) static PROP5_BUDGET: StepClaim = StepClaim {
    info: ClaimInfo {
        id: "multipass.prop5.step.budget",
        paper: PAPER,
        result: "Proposition 5's proof: delta/2 + sum_{t>=2} 0.5 delta/(t(t-1)) = delta [as printed]",
        statement: "(delta/2 + sum_{t=2}^T 0.5 delta/(t(t-1)))/delta = 1 - 1/(2T) <= 1 (equality in the limit T -> infinity, as printed)",
        mutants: &[BUDGET_DOUBLED],
        known_false: false,
        tautologies: &[],
        perturbation: None,
    },
    cases: || {
        [2u64, 100, 1_000_000]
            .iter()
            .map(|t| params! { "T" => t })
            .collect()
    },
    measure: |case, run| {
        let top = horizon(case, 2, 100_000_000)?;
        let w = if is(run, &BUDGET_DOUBLED) { 1.0 } else { 0.5 };
        let mut total = 0.0;
        for t in (2..=top).rev() {
            let t = t as f64;
            total += w / (t * (t - 1.0));
        }
        total += 0.5;
        Ok(vec![computed(
            case.clone(),
            1.0,
            Relation::AtMost,
            total,
            top as f64,
            1.0,
        )])
    },
};

/// The exact $\delta(\epsilon)$ of the composition of randomized-response mechanisms, groups of
/// `count` mechanisms at level `eps` each (pure $\epsilon_i$-DP; the extremal pair of pure DP,
/// for which composition bounds are tight). Privacy loss $\sum_i\epsilon_i(2K_i-T_i)$ with
/// $K_i\sim\mathrm{Bin}(T_i,e^{\epsilon_i}/(1+e^{\epsilon_i}))$;
/// $\delta(\epsilon)=\mathbb E[(1-e^{\epsilon-L})_+]$.
pub(super) fn randomized_response_delta(groups: &[(u64, f64)], epsilon: f64) -> f64 {
    // The loss distribution as (loss, probability) atoms, convolved group by group.
    let mut atoms: Vec<(f64, f64)> = vec![(0.0, 1.0)];
    for &(count, eps) in groups {
        let p = 1.0 / (1.0 + (-eps).exp());
        let (lp, lq) = (p.ln(), (1.0 - p).ln());
        let mut log_choose = 0.0;
        let mut pmf = Vec::with_capacity(count as usize + 1);
        for k in 0..=count {
            if k > 0 {
                log_choose += ((count - k + 1) as f64).ln() - (k as f64).ln();
            }
            pmf.push((
                eps * (2.0 * k as f64 - count as f64),
                (log_choose + k as f64 * lp + (count - k) as f64 * lq).exp(),
            ));
        }
        let mut next = Vec::with_capacity(atoms.len() * pmf.len());
        for &(l0, p0) in &atoms {
            for &(l1, p1) in &pmf {
                next.push((l0 + l1, p0 * p1));
            }
        }
        atoms = next;
    }
    atoms
        .iter()
        .filter(|(l, _)| *l > epsilon)
        .map(|(l, p)| p * -(epsilon - l).exp_m1())
        .sum()
}

pub(super) const DRV_WITHOUT_SECOND_TERM: Mutant = Mutant {
    name: "without-second-term",
    description: "bound side: Proposition 5's level without sum_s eps_s (e^{eps_s} - 1)",
};

pub(super) static PROP5_DRV: StepClaim = StepClaim {
    info: ClaimInfo {
        id: "multipass.prop5.step.drv",
        paper: PAPER,
        result: "Proposition 5 = Dwork, Rothblum, Vadhan (2010) Thm 3.3 with step-dependent eps_t [as printed, cited], exact on compositions of randomized response (pure eps_t-DP, delta_t = 0)",
        statement: "the exact delta of the composition at eps = sqrt(2 ln(2/delta) sum eps_s^2) + sum eps_s (e^{eps_s} - 1) <= delta/2 (the part of Proposition 5's delta that is not the steps' own delta_t) [weak check, detection threshold of the bound 0.9985 (a bound that much smaller is still respected); docs/detection.json]",
        mutants: &[DRV_WITHOUT_SECOND_TERM, DRV_THRESHOLD],
        known_false: false,
        tautologies: &[],
        perturbation: Some(
            "algorithm side: every randomized response's eps_s times 1 + kappa in the exact delta while the level keeps eps_s",
        ),
    },
    cases: || {
        let mut v = Vec::new();
        for delta in [1e-3, 1e-6] {
            for (t1, e1, t2, e2) in [
                (10u64, 0.5, 0, 0.0),
                (100, 0.1, 0, 0.0),
                (400, 0.05, 0, 0.0),
                (100, 0.3, 100, 0.05),
                (30, 1.0, 200, 0.1),
            ] {
                v.push(params! { "delta" => delta, "T1" => t1, "eps1" => e1, "T2" => t2, "eps2" => e2 });
            }
        }
        v
    },
    measure: |case, run| {
        let delta = error::open_interval("delta", case.f64("delta")?, 0.0, 1.0)?;
        let mut groups = Vec::new();
        for (tk, ek) in [("T1", "eps1"), ("T2", "eps2")] {
            let (t, e) = (case.u64(tk)?, error::non_negative(ek, case.f64(ek)?)?);
            if t > 1000 {
                return Err(ParamError::new(tk, t, "at most 1000 mechanisms per group"));
            }
            if t > 0 {
                groups.push((t, e));
            }
        }
        let sq: f64 = groups.iter().map(|(t, e)| *t as f64 * e * e).sum();
        let lin: f64 = groups.iter().map(|(t, e)| *t as f64 * e * e.exp_m1()).sum();
        let level = (2.0 * (2.0 / delta).ln() * sq).sqrt()
            + if is(run, &DRV_WITHOUT_SECOND_TERM) {
                0.0
            } else {
                lin
            };
        // The perturbation: the mechanisms' eps_s times 1 + kappa (the level keeps eps_s).
        let run_groups: Vec<(u64, f64)> = groups
            .iter()
            .map(|(t, e)| (*t, e * (1.0 + run.kappa(&DRV_THRESHOLD, 0.25))))
            .collect();
        let exact = randomized_response_delta(&run_groups, level);
        let mut p = case.clone();
        p.set("level", level.into());
        let atoms: f64 = groups.iter().map(|(t, _)| (*t + 1) as f64).product();
        Ok(vec![computed(
            p,
            delta / 2.0,
            Relation::AtMost,
            exact,
            4.0 * atoms,
            exact.max(delta * 1e-6),
        )])
    },
};

pub(super) const DRV_THRESHOLD: Mutant = Mutant {
    name: "eps-1.25x",
    description: "algorithm side, threshold mutant: every randomized response's eps_s times 1 + 0.25 while the level keeps eps_s; the algorithm detection threshold (kappa* in (0.232, 0.248], exact) rounded up",
};
pub(super) const GAUSSIAN_MECHANISM_THRESHOLD: Mutant = Mutant {
    name: "noise-std-0.87x",
    description: "algorithm side, threshold mutant: the Gaussian mechanism's noise std times 1 - 0.13 while the bound keeps delta; the algorithm detection threshold (kappa* in (0.108, 0.124], exact) rounded up",
};
pub(super) const CALIBRATION_WITHOUT_TWO: Mutant = Mutant {
    name: "calibration-without-2",
    description: "measured side: sigma = sqrt(ln(1.25/delta)) Delta/eps (the 2 under the root dropped: noise 1/sqrt 2 times too small)",
};

pub(super) static LEMMA6_GAUSSIAN: StepClaim = StepClaim {
    info: ClaimInfo {
        id: "multipass.lemma6.step.gaussian_mechanism",
        paper: PAPER,
        result: "Lemma 6's proof: the Gaussian mechanism is (eps(delta), delta)-DP with eps(delta) = sqrt(8 ln(1.25/delta)) eta G/sigma (Dwork and Roth 2014, Thm A.1, sensitivity 2 eta G, hypothesis eps < 1) [as printed, cited]",
        statement: "the exact delta of N(Delta, sigma^2) vs N(0, sigma^2) at eps, with sigma = sqrt(2 ln(1.25/delta)) Delta/eps, <= delta, for eps in (0, 1) [weak check, detection threshold of the bound 0.9698 (a bound that much smaller is still respected); docs/detection.json]",
        mutants: &[CALIBRATION_WITHOUT_TWO, GAUSSIAN_MECHANISM_THRESHOLD],
        known_false: false,
        tautologies: &[],
        perturbation: Some(
            "algorithm side: the Gaussian mechanism's noise std times 1 - kappa while the bound keeps delta at the calibrated sigma",
        ),
    },
    cases: || {
        let mut v = Vec::new();
        for delta in [0.1, 1e-3, 1e-6, 1e-12] {
            for eps in [0.05, 0.5, 0.99] {
                v.push(params! { "epsilon" => eps, "delta" => delta });
            }
        }
        v
    },
    measure: |case, run| {
        let eps = error::open_interval("epsilon", case.f64("epsilon")?, 0.0, 1.0)?;
        let delta = error::open_interval("delta", case.f64("delta")?, 0.0, 1.0)?;
        let factor = if is(run, &CALIBRATION_WITHOUT_TWO) {
            1.0
        } else {
            2.0
        };
        // mu = Delta / sigma.
        let mu = eps / (factor * (1.25 / delta).ln()).sqrt();
        // The perturbation: the noise std times 1 - kappa.
        let exact = gaussian::delta(
            mu / (1.0 - run.kappa(&GAUSSIAN_MECHANISM_THRESHOLD, 0.13)),
            eps,
        )?;
        let mut p = case.clone();
        p.set("mu", mu.into());
        Ok(vec![computed(
            p,
            delta,
            Relation::AtMost,
            exact,
            64.0,
            exact,
        )])
    },
};
