//! Proof steps of seed 000: Proposition 1's proof: Lemmas 2 and 3 (Freund, Ma, Zhang 2021), exactly on Gaussian laws.

use super::*;

/// An isotropic Gaussian $\mathcal N(m\mathbf 1/\sqrt d\cdot\sqrt d, s^2I_d)$ summarised by its mean's
/// squared distance to a point and its standard deviation: all that $W_2$ and the losses need.
#[derive(Clone, Copy)]
pub(super) struct Iso {
    /// Mean (a scalar: the laws live on one line through the origin, times $I_d$ noise).
    m: f64,
    /// Standard deviation of each coordinate.
    s: f64,
}

/// $W_2^2$ between isotropic Gaussians with collinear means in $d$ dimensions.
pub(super) fn w2sq(a: Iso, b: Iso, d: f64) -> f64 {
    (a.m - b.m).powi(2) + d * (a.s - b.s).powi(2)
}

/// The grid of comparators $p=\mathcal N(\mu,vI)$ (chosen off the equality points).
pub(super) const MU_GRID: [f64; 5] = [-2.1, -0.7, 0.13, 0.9, 2.3];
pub(super) const SD_GRID: [f64; 5] = [0.05, 0.3, 0.77, 1.4, 3.1];

pub(super) fn lemma2_cases() -> Vec<Params> {
    let mut v = Vec::new();
    for d in [1u64, 5] {
        for c in [0.0, 0.3, 0.9, 0.99] {
            for beta0 in [0.1, 1.0] {
                v.push(params! { "d" => d, "c" => c, "eta" => 0.5, "beta0" => beta0 });
            }
        }
    }
    v
}

pub(super) const LEMMA2_CONTRACTION_SQUARED: Mutant = Mutant {
    name: "contraction-squared",
    description: "bound side: (1 - lambda_t eta_t)^2 W2(p~_{t-1}, p)^2 in place of (1 - lambda_t eta_t) W2(p~_{t-1}, p)^2",
};

pub(super) static LEMMA2_GAUSSIAN: StepClaim = StepClaim {
    info: ClaimInfo {
        id: "multipass.prop1.step.lemma2",
        paper: PAPER,
        result: "Lemma 2 (Freund, Ma, Zhang 2021) as used in Proposition 1's proof [as printed, cited], exact on isotropic Gaussian laws",
        statement: "2 eta_t [(E_{p_t} g_t + beta_t H(p_t)) - (E_p g_t + beta_t H(p))] <= (1 - lambda_t eta_t) W2(p~_{t-1}, p)^2 - W2(p_t, p)^2, p_t the law after step (4) from p~_{t-1}: max over Gaussian p~, p of LHS - RHS <= 0",
        mutants: &[LEMMA2_CONTRACTION_SQUARED],
        known_false: false,
        tautologies: &[],
        perturbation: None,
    },
    cases: lemma2_cases,
    measure: |case, run| {
        let d = case.u64("d")? as f64;
        let c = case.f64("c")?;
        if !(0.0..1.0).contains(&c) {
            return Err(ParamError::new(
                "c",
                c,
                "a contraction 1 - lambda eta in [0, 1)",
            ));
        }
        let eta = error::positive("eta", case.f64("eta")?)?;
        let beta0 = error::positive("beta0", case.f64("beta0")?)?;
        let lambda = (1.0 - c) / eta;
        let beta_t = lambda * beta0;
        // E_p g + beta_t E_p ln p for p = N(m, s^2 I_d).
        let energy = |p: Iso| {
            0.5 * lambda * (p.m * p.m + d * p.s * p.s)
                - beta_t
                    * 0.5
                    * d
                    * (2.0 * std::f64::consts::PI * std::f64::consts::E * p.s * p.s).ln()
        };
        let weight = if is(run, &LEMMA2_CONTRACTION_SQUARED) {
            c * c
        } else {
            c
        };
        let mut worst = f64::NEG_INFINITY;
        let mut scale: f64 = 0.0;
        for &mt in &MU_GRID {
            for &st in &SD_GRID {
                let prev = Iso { m: mt, s: st };
                let pt = Iso {
                    m: c * mt,
                    s: (c * c * st * st + (1.0 - c * c) * beta0).sqrt(),
                };
                for &mu in &MU_GRID {
                    for &sd in &SD_GRID {
                        let p = Iso {
                            m: mu * 1.07,
                            s: sd * 1.09,
                        };
                        let lhs = 2.0 * eta * (energy(pt) - energy(p));
                        let rhs = weight * w2sq(prev, p, d) - w2sq(pt, p, d);
                        worst = worst.max(lhs - rhs);
                        scale = scale.max(lhs.abs()).max(rhs.abs());
                    }
                }
            }
        }
        Ok(vec![computed(
            case.clone(),
            0.0,
            Relation::AtMost,
            worst,
            64.0,
            scale,
        )])
    },
};

pub(super) const LEMMA3_WITHOUT_GRADIENT: Mutant = Mutant {
    name: "without-gradient-term",
    description: "bound side: Lemma 3 without its eta_t^2 E||grad l||^2 term",
};

pub(super) static LEMMA3_GAUSSIAN: StepClaim = StepClaim {
    info: ClaimInfo {
        id: "multipass.prop1.step.lemma3",
        paper: PAPER,
        result: "Lemma 3 (Freund, Ma, Zhang 2021), first inequality [as printed, cited], exact on Gaussian laws: P-quad l = (a/2)||w - z||^2 (strict) and P-lin l = G s w (equality)",
        statement: "2 eta_t [E_{p_t} l(w, z_t) - E_p l(w, z_t)] <= W2(p_t, p)^2 - W2(p~_t, p)^2 + eta_t^2 E_{p_t}||grad l||^2, p~_t the law after the gradient step: P-quad max over Gaussian p_t, p of LHS - RHS <= 0; P-lin LHS/RHS reproduces 1 (equality) on the whole grid",
        mutants: &[LEMMA3_WITHOUT_GRADIENT],
        known_false: false,
        tautologies: &[],
        perturbation: None,
    },
    cases: || {
        let mut v = Vec::new();
        for d in [1u64, 5] {
            for eta_a in [0.1, 1.0, 1.9] {
                v.push(params! { "instance" => "quad", "d" => d, "a" => 1.0, "eta" => eta_a, "z" => 0.4 });
            }
        }
        for eta in [0.01, 0.5] {
            v.push(params! { "instance" => "lin", "d" => 1, "G" => 1.0, "eta" => eta, "z" => 1.0 });
        }
        v
    },
    measure: |case, run| {
        let d = case.u64("d")? as f64;
        let eta = error::positive("eta", case.f64("eta")?)?;
        let z = case.f64("z")?;
        let lin = case.choice("instance", &["quad", "lin"])? == "lin";
        let grad_on = !is(run, &LEMMA3_WITHOUT_GRADIENT);
        let mut out = Vec::new();
        if lin {
            // l(w, s) = G s w with s = z: the gradient step shifts every law by -eta G s.
            let g = error::positive("G", case.f64("G")?)?;
            // The ratio LHS/RHS farthest from 1 over the grid (RHS stays away from 0 there).
            let mut farthest: f64 = 1.0;
            for &m in &MU_GRID {
                for &sd in &SD_GRID {
                    let pt = Iso { m, s: sd };
                    let next = Iso {
                        m: m - eta * g * z,
                        s: sd,
                    };
                    let p = Iso { m: 0.61, s: 0.83 };
                    let lhs = 2.0 * eta * g * z * (pt.m - p.m);
                    let grad = if grad_on {
                        eta * eta * g * g * z * z
                    } else {
                        0.0
                    };
                    let rhs = w2sq(pt, p, d) - w2sq(next, p, d) + grad;
                    let ratio = lhs / rhs;
                    if (ratio - 1.0).abs() > (farthest - 1.0).abs() {
                        farthest = ratio;
                    }
                }
            }
            out.push(computed(
                case.clone(),
                1.0,
                Relation::Reproduces { tolerance: 1e-9 },
                farthest,
                1e4,
                1.0,
            ));
            return Ok(out);
        }
        let a = error::positive("a", case.f64("a")?)?;
        if a * eta >= 2.0 {
            return Err(ParamError::new(
                "eta",
                eta,
                format!("a step with a eta < 2 (a = {a})"),
            ));
        }
        let loss = |p: Iso| 0.5 * a * ((p.m - z).powi(2) + d * p.s * p.s);
        let (mut worst, mut scale) = (f64::NEG_INFINITY, 0.0f64);
        for &m in &MU_GRID {
            for &sd in &SD_GRID {
                let pt = Iso { m, s: sd };
                let next = Iso {
                    m: (1.0 - eta * a) * m + eta * a * z,
                    s: (1.0 - eta * a).abs() * sd,
                };
                let grad = if grad_on {
                    eta * eta * a * a * ((m - z).powi(2) + d * sd * sd)
                } else {
                    0.0
                };
                for &mu in &MU_GRID {
                    for &v in &SD_GRID {
                        let p = Iso {
                            m: mu * 1.07,
                            s: v * 1.09,
                        };
                        let lhs = 2.0 * eta * (loss(pt) - loss(p));
                        let rhs = w2sq(pt, p, d) - w2sq(next, p, d) + grad;
                        worst = worst.max(lhs - rhs);
                        scale = scale.max(lhs.abs()).max(rhs.abs());
                    }
                }
            }
        }
        out.push(computed(
            case.clone(),
            0.0,
            Relation::AtMost,
            worst,
            64.0,
            scale,
        ));
        Ok(out)
    },
};
