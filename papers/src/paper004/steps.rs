//! Proof-step claims of seed 004 (Ganesh, Talwar 2020, arXiv 2010.14658). Our copy keeps
//! Theorem 12's proof in prose (its displays lost) and the intuition of Lemma 13 and of the final
//! pipeline; Lemmas 10 and 14 and Section 7 are missing. The steps checked here: Theorem 12's
//! per-step cost, Lemma 13's "tail bound on the norm of the gradient by smoothness" (as printed
//! and corrected), and the two cited results the pipeline rests on (Vempala–Wibisono's decay
//! with its initial divergence, Mironov's weak triangle inequality), on exact Gaussian laws.
//! The maps are in `src/proofs_004.rs`; the findings in THEOREMS_NOTES.md ("Seed 004, proof
//! maps").

use super::renyi_exact::{Instance, divergence, g_instances};
use dpclaims_core::claim::{ClaimInfo, Mutant};
use dpclaims_core::interval::{I, Real};
use dpclaims_core::params;
use dpclaims_core::params::Params;
use dpclaims_core::prove::{ClosedForm, FormClaim};
use dpclaims_core::space::Axis;
use dpclaims_core::step::{StepClaim, computed, is, plus_error};
use dpclaims_core::verdict::Relation;
use dpclaims_theorems::contraction::chi2_sf;
use dpclaims_theorems::{ParamError, error, renyi_discretization as bounds};

const PAPER: &str = "004_eaab97274611faab.txt — Ganesh, Talwar (2020), arXiv 2010.14658";

/// A stated margin for the relative error of one regularised incomplete gamma value (statrs'
/// $\chi^2$ tail): far below every gap between measured and bound in these claims.
const CHI2_RELATIVE_ERROR: f64 = 1e-8;

// ---------------------------------------------------------------------------------------------
// Theorem 12's proof: the cost of one fine step on a non-stopped history
// ---------------------------------------------------------------------------------------------

const NOISE_ETA: Mutant = Mutant {
    name: "noise-eta-over-k",
    description: "measurement side: the fine steps' noise variance eta/k (the noise-eta variant) instead of the printed 2 eta/k",
};

static PER_STEP: StepClaim = StepClaim {
    info: ClaimInfo {
        id: "renyi_discretization.thm12.step.per_step",
        paper: PAPER,
        result: "Theorem 12's proof [reconstructed; the construction as printed]: on a history where E_r holds, psi and psi' are Gaussian steps N(., (2 eta/k) I) whose means differ by (eta/k)(grad f(x_anchor) - grad f(x_j)), ||x_j - x_anchor|| <= r, so one step costs at most alpha eta L^2 r^2/(4k)",
        statement: "f = ||x||^2/2 + sum_i log cosh x_i (L = 2, d = 2), eta = 0.05, k = 10: largest exact D_alpha between the two one-step kernels (theorems' Gaussian formula) over anchors in {-3, ..., 3}^2 and points at distance r (16 directions), divided by alpha eta L^2 r^2/(4k), <= 1 (tightest at small r near the origin, where the Hessian is 2I)",
        mutants: &[NOISE_ETA],
        known_false: false,
        tautologies: &[],
        perturbation: None,
    },
    cases: || {
        let mut v = Vec::new();
        for alpha in [2.0, 8.0] {
            for r in [0.05, 0.5, 2.0] {
                v.push(params! { "alpha" => alpha, "r" => r, "eta" => 0.05, "k" => 10 });
            }
        }
        v
    },
    measure: |case, run| {
        let alpha = error::open_interval("alpha", case.f64("alpha")?, 1.0, 1e6)?;
        let r = error::positive("r", case.f64("r")?)?;
        let eta = error::positive("eta", case.f64("eta")?)?;
        let k = error::at_least("k", case.u64("k")?, 1)? as f64;
        let smoothness = 2.0;
        let bound = bounds::theorem12_bound(alpha, smoothness, r, 1, eta)? / k;
        let variance = if is(run, &NOISE_ETA) { 1.0 } else { 2.0 } * eta / k;
        let grad = |x: f64| x + x.tanh();
        let mut worst: f64 = 0.0;
        for i in 0..=12 {
            for j in 0..=12 {
                let a = [-3.0 + 0.5 * i as f64, -3.0 + 0.5 * j as f64];
                for u in 0..16 {
                    let phi = u as f64 * std::f64::consts::PI / 8.0;
                    let x = [a[0] + r * phi.cos(), a[1] + r * phi.sin()];
                    // Independent coordinates: D_alpha adds over them.
                    let mut d = 0.0;
                    for c in 0..2 {
                        let shift = eta / k * (grad(a[c]) - grad(x[c]));
                        d += bounds::gaussian_1d(alpha, shift, variance, 0.0, variance)?;
                    }
                    worst = worst.max(d / bound);
                }
            }
        }
        Ok(vec![computed(
            case.clone(),
            1.0,
            Relation::AtMost,
            worst,
            64.0,
            worst,
        )])
    },
};

// ---------------------------------------------------------------------------------------------
// Lemma 13's intuition: "cL(sqrt d + sqrt ln(T/delta)) is a tail bound on norm of the gradient
// by smoothness"
// ---------------------------------------------------------------------------------------------

/// The probability that $\sqrt m\thinspace\chi_d$ exceeds $t$: $P(\chi^2_d>t^2/m)$, with its error margin.
fn gradient_tail(d: u64, m: f64, t: f64) -> (f64, f64) {
    let p = chi2_sf(d as f64, t * t / m);
    (p, CHI2_RELATIVE_ERROR * p)
}

fn tail_params(case: &Params) -> Result<(u64, f64, u64, f64), ParamError> {
    let d = case.u64("d")?;
    if !(1..=100_000).contains(&d) {
        return Err(ParamError::new("d", d, "a dimension in [1, 10^5]"));
    }
    let m = error::open_interval("m", case.f64("m")?, 0.0, 1e6)?;
    let steps = error::at_least("T", case.u64("T")?, 1)?;
    let delta = error::open_interval("delta", case.f64("delta")?, 0.0, 1.0)?;
    Ok((d, m, steps, delta))
}

static GRADIENT_TAIL: StepClaim = StepClaim {
    info: ClaimInfo {
        id: "renyi_discretization.lemma13.step.gradient_tail",
        paper: PAPER,
        result: "Lemma 13's intuition [as printed, prose]: 'cL(sqrt(d) + sqrt(ln(T/delta))) is a tail bound on norm of the gradient by smoothness' (c an unspecified constant), read with c = 2",
        statement: "f = (m/2)||x||^2 (L = m), the diffusion started at pi = N(0, I/m) (so every x_{k eta} ~ pi): P(max_{k<T} ||grad f(x_{k eta})|| > 2L(sqrt d + sqrt ln(T/delta))) >= P(sqrt(m) chi_d > 2m(sqrt d + sqrt ln(T/delta))) <= delta (known false for m <= 0.1: the needed c grows like 1/sqrt(m), no absolute c exists)",
        mutants: &[],
        known_false: true,
        tautologies: &[],
        perturbation: None,
    },
    cases: || {
        let mut v = Vec::new();
        for (m, d) in [(0.1, 10u64), (0.1, 100), (0.01, 1), (0.01, 10), (0.01, 100)] {
            v.push(params! { "m" => m, "d" => d, "T" => 100, "delta" => 0.01, "c" => 2.0 });
        }
        v
    },
    measure: |case, _| {
        let (d, m, steps, delta) = tail_params(case)?;
        let c = error::positive("c", case.f64("c")?)?;
        let t = c * m * ((d as f64).sqrt() + (steps as f64 / delta).ln().sqrt());
        // One step's tail is a lower bound on the probability of the maximum over T steps.
        let (p, err) = gradient_tail(d, m, t);
        let out = computed(case.clone(), delta, Relation::AtMost, p, 1.0, p);
        Ok(vec![plus_error(out, err)])
    },
};

const WITHOUT_SQRT2: Mutant = Mutant {
    name: "log-term-without-2",
    description: "bound side: sqrt(ln(T/delta)) (the printed log term) in place of sqrt(2 ln(T/delta))",
};

static GRADIENT_TAIL_CORRECTED: StepClaim = StepClaim {
    info: ClaimInfo {
        id: "renyi_discretization.lemma13.step.gradient_tail.corrected",
        paper: PAPER,
        result: "Lemma 13's gradient tail, corrected [derived, THEOREMS.md grad-derived]: ||grad f(x)|| <= L ||x - x*|| and, under m-strong log-concavity, ||x - x*|| <= (sqrt d + sqrt(2 ln(T/delta)))/sqrt(m) except with probability delta/T per step (Gaussian concentration), so G = L(sqrt d + sqrt(2 ln(T/delta)))/sqrt(m)",
        statement: "f = (m/2)||x||^2, x_{k eta} ~ pi = N(0, I/m): the union bound T P(sqrt(m) chi_d > G) <= delta, for every m (the 1/sqrt(m) makes the tail scale-free) [weak check, detection threshold of the bound 0.9993: Gaussian concentration's e^{-u^2/2} is far above the chi tail; docs/detection.json]",
        mutants: &[WITHOUT_SQRT2],
        known_false: false,
        tautologies: &[],
        perturbation: None,
    },
    cases: || {
        let mut v = Vec::new();
        for m in [1.0, 0.01] {
            for d in [1u64, 10, 200] {
                for (t, delta) in [(10u64, 1e-6), (1000, 0.01)] {
                    v.push(params! { "m" => m, "d" => d, "T" => t, "delta" => delta });
                }
            }
        }
        v
    },
    measure: |case, run| {
        let (d, m, steps, delta) = tail_params(case)?;
        let two = if is(run, &WITHOUT_SQRT2) { 1.0 } else { 2.0 };
        let g = m * ((d as f64).sqrt() + (two * (steps as f64 / delta).ln()).sqrt()) / m.sqrt();
        let (p, err) = gradient_tail(d, m, g);
        let union = steps as f64 * p;
        let out = computed(case.clone(), delta, Relation::AtMost, union, 2.0, union);
        Ok(vec![plus_error(out, steps as f64 * err)])
    },
};

// ---------------------------------------------------------------------------------------------
// The pipeline's cited results, on exact Gaussian laws
// ---------------------------------------------------------------------------------------------

/// The G-instances at the small step size (all three orders below their critical order).
fn small_step_instances() -> Vec<Params> {
    g_instances()
        .into_iter()
        .filter(|p| p.f64("eta").is_ok_and(|e| e == 0.01))
        .collect()
}

const FIRST_TERM_DROPPED: Mutant = Mutant {
    name: "first-term-dropped",
    description: "bound side: D_{2 alpha - 1}(OU || pi) alone, without the discretisation term",
};

static WEAK_TRIANGLE: StepClaim = StepClaim {
    info: ClaimInfo {
        id: "renyi_discretization.main.step.weak_triangle",
        paper: PAPER,
        result: "the final pipeline's split [recalled: Mironov 2017, Prop. 11, the weak triangle inequality; derived rd.triangle_split]: D_alpha(ULA_T || pi) <= (alpha - 1/2)/(alpha - 1) D_{2 alpha}(ULA_T || OU_{T eta}) + D_{2 alpha - 1}(OU_{T eta} || pi)",
        statement: "exact Gaussian laws on instances G1-G3 at eta = 0.01 (2 alpha below the critical order), alpha in {2, 5, 10}: the left side <= the right side",
        mutants: &[FIRST_TERM_DROPPED],
        known_false: false,
        tautologies: &[],
        perturbation: None,
    },
    cases: || {
        let mut v = Vec::new();
        for p in small_step_instances() {
            for alpha in [2.0, 5.0, 10.0] {
                let mut c = p.clone();
                c.set("alpha", alpha.into());
                v.push(c);
            }
        }
        v
    },
    measure: |case, run| {
        let inst = Instance::parse(case)?;
        let alpha = error::open_interval("alpha", case.f64("alpha")?, 1.0, 1e4)?;
        let steps = inst.steps(case)?;
        let (ula, ou) = inst.laws(steps, false, 0.0);
        let target = inst
            .quadratic
            .target()
            .ok_or_else(|| ParamError::new("h", "singular", "a positive definite Hessian"))?;
        let lhs = divergence(alpha, &ula, &target)?;
        let first = if is(run, &FIRST_TERM_DROPPED) {
            0.0
        } else {
            (alpha - 0.5) / (alpha - 1.0) * divergence(2.0 * alpha, &ula, &ou)?
        };
        let rhs = first + divergence(2.0 * alpha - 1.0, &ou, &target)?;
        let scale = lhs.abs().max(rhs.abs()).max(1.0);
        Ok(vec![computed(
            case.clone(),
            rhs,
            Relation::AtMost,
            lhs,
            1e4 * inst.dim() as f64,
            scale,
        )])
    },
};

const RATE_DOUBLED: Mutant = Mutant {
    name: "rate-doubled",
    description: "bound side: e^{-4 m t/q} in place of e^{-2 m t/q}",
};
const INIT_ONE_DIMENSION: Mutant = Mutant {
    name: "init-one-dimension",
    description: "bound side: (1/2) ln(L/m), without the factor d",
};

static VW19: StepClaim = StepClaim {
    info: ClaimInfo {
        id: "renyi_discretization.main.step.vw19",
        paper: PAPER,
        result: "the final pipeline's mixing step [recalled: Vempala and Wibisono 2019, 'the continuous process is known to converge very quickly in Renyi divergence to the target', as printed, prose]: R_q(rho_t || pi) <= e^{-2 m t/q} R_q(rho_0 || pi) under an LSI with constant m, and [recalled rd.init] R_q(N(x*, I/L) || pi) <= (d/2) ln(L/m)",
        statement: "exact Gaussian laws: the diffusion on f = x^T H x/2 from N(3 * 1, I/4) (H of G2, d = 10; H = diag(1, 2)), q in {1, 2, 5}, t in {0.25, 1, 3}: R_q(rho_t || pi) <= e^{-2 m t/q} R_q(rho_0 || pi); and R_q(N(0, I/L) || pi) <= (d/2) ln(L/m) for q in {2, 10, 100}",
        mutants: &[RATE_DOUBLED, INIT_ONE_DIMENSION],
        known_false: false,
        tautologies: &[],
        perturbation: None,
    },
    cases: || {
        let linspace: Vec<f64> = (0..10).map(|i| 1.0 + 3.0 * i as f64 / 9.0).collect();
        let mut v = Vec::new();
        for (name, h) in [("G2", linspace), ("diag(1,2)", vec![1.0, 2.0])] {
            let d = h.len();
            for q in [1.0, 2.0, 5.0] {
                for t in [0.25, 1.0, 3.0] {
                    v.push(params! {
                        "part" => "decay", "instance" => name, "h" => h.clone(), "m0" => vec![3.0; d],
                        "v0" => 0.25, "eta" => 0.01, "q" => q, "t" => t,
                    });
                }
            }
            for q in [2.0, 10.0, 100.0] {
                v.push(params! {
                    "part" => "init", "instance" => name, "h" => h.clone(), "m0" => vec![0.0; d],
                    "v0" => 0.25, "eta" => 0.01, "q" => q,
                });
            }
        }
        v
    },
    measure: |case, run| {
        use dpclaims_empirical::langevin::GaussianLaw;
        use nalgebra::DMatrix;
        let inst = Instance::parse(case)?;
        let q = case.f64("q")?;
        if !(1.0..=1e4).contains(&q) {
            return Err(ParamError::new("q", q, "an order in [1, 10^4]"));
        }
        let target = inst
            .quadratic
            .target()
            .ok_or_else(|| ParamError::new("h", "singular", "a positive definite Hessian"))?;
        let (m, l, d) = (inst.strong_convexity, inst.smoothness, inst.dim());
        let (value, bound) = if case.choice("part", &["decay", "init"])? == "decay" {
            let t = error::positive("t", case.f64("t")?)?;
            let start = inst.init();
            let rate = if is(run, &RATE_DOUBLED) { 4.0 } else { 2.0 };
            let later = inst.quadratic.diffusion_law(&start, t);
            (
                divergence(q, &later, &target)?,
                (-rate * m * t / q).exp() * divergence(q, &start, &target)?,
            )
        } else {
            let start = GaussianLaw {
                mean: inst.quadratic.minimiser.clone(),
                cov: DMatrix::identity(d, d) / l,
            };
            let dims = if is(run, &INIT_ONE_DIMENSION) {
                1.0
            } else {
                d as f64
            };
            (divergence(q, &start, &target)?, 0.5 * dims * (l / m).ln())
        };
        let scale = value.abs().max(bound.abs()).max(1.0);
        Ok(vec![computed(
            case.clone(),
            bound,
            Relation::AtMost,
            value,
            1e4 * d as f64,
            scale,
        )])
    },
};

// ---------------------------------------------------------------------------------------------
// Theorem 12's closing remark and Lemma 13's intuition, with Lemma 13's radius: closed forms
// proved on their box
// ---------------------------------------------------------------------------------------------

/// The box of the two radius claims: $u=\eta L^2/m\le1$ (small steps), the dimension $d$, and
/// $T/\delta=\tau/(\eta\delta)\ge1$.
const RADIUS_BOX: &[Axis] = &[
    Axis::log("eta_L2_over_m", 1e-12, 1.0),
    Axis::int("d", 1, 1_000_000),
    Axis::log("T_over_delta", 1.0, 1e30),
];

fn radius_cases() -> Vec<Params> {
    [
        (1.0, 1u64, 1.0),
        (1e-4, 10, 1e7),
        (1e-8, 1000, 1e20),
        (1e-6, 1, 1e30),
    ]
    .iter()
    .map(|&(u, d, t)| params! { "eta_L2_over_m" => u, "d" => d, "T_over_delta" => t })
    .collect()
}

/// Lemma 13's radius $r=\eta G+\sqrt{2\eta}\thinspace(2\sqrt d+\sqrt{2\ell})$, $\ell=\ln(2T/\delta)$,
/// with the pipeline's $G=L(\sqrt d+\sqrt{2\ell})/\sqrt m$ ([`bounds::iteration_complexity`]),
/// per unit $\sqrt\eta$: the gradient part $\eta G/\sqrt\eta=\sqrt u\thinspace(\sqrt d+\sqrt{2\ell})$,
/// $u=\eta L^2/m$, and the Brownian part $\sqrt2\thinspace(2\sqrt d+\sqrt{2\ell})$; and
/// $\Lambda=\ln(T/\delta)=\ln(\tau/(\eta\delta))$ at $T=\tau/\eta$.
fn radius_parts<R: Real>(x: &[R]) -> (R, R, R) {
    let (u, d, t_over_delta) = (x[0], x[1], x[2]);
    let two = R::cst(2.0);
    let root = (two * (two * t_over_delta).ln()).sqrt();
    let gradient = u.sqrt() * (d.sqrt() + root);
    let brownian = two.sqrt() * (two * d.sqrt() + root);
    (gradient, brownian, t_over_delta.ln())
}

const WITHOUT_LOG: Mutant = Mutant {
    name: "without-logarithm",
    description: "the bound divided by alpha L^2 tau eta d (exactly proportional to eta, the logarithm dropped): unbounded as tau/(eta delta) grows",
};

/// Theorem 12's closing remark: with $T=\tau/\eta$ the bound $B=\alpha L^2r^2T\eta/4$ at Lemma
/// 13's radius, divided by $\alpha L^2\tau\eta\thinspace(d+\Lambda)$, is
/// $\rho=\frac{(r/\sqrt\eta)^2}{4(d+\Lambda)}$, and $1\le\rho\le c$ with
/// $c=\frac{(1+\ln2)((1+2\sqrt2)^2+2(1+\sqrt2)^2)}4\approx11.14$: the lower end from
/// $(r/\sqrt\eta)^2\ge2(4d+2\ell)\ge4(d+\Lambda)$, the upper from Cauchy–Schwarz,
/// $(x\sqrt d+y\sqrt{2\ell})^2\le(x^2+2y^2)(d+\ell)$ with $x=\sqrt u+2\sqrt2$, $y=\sqrt u+\sqrt2$,
/// $u\le1$, and $d+\ell\le(1+\ln2)(d+\Lambda)$ for $d\ge1$. Both ends at once:
/// $\min(\rho,\ 1+c-\rho)\ge1$.
fn proportional<R: Real>(x: &[R], m: Option<&str>) -> (R, R) {
    let (gradient, brownian, lambda) = radius_parts(x);
    let d = x[1];
    let per = if m == Some(WITHOUT_LOG.name) {
        d
    } else {
        d + lambda
    };
    let rho = (gradient + brownian).sqr() / (R::cst(4.0) * per);
    let (one, two) = (R::cst(1.0), R::cst(2.0));
    let s = two.sqrt();
    let c = (one + two.ln()) * ((one + two * s).sqr() + two * (one + s).sqr()) / R::cst(4.0);
    (rho.min(one + c - rho), one)
}

static PROPORTIONAL: FormClaim = FormClaim {
    info: ClaimInfo {
        id: "renyi_discretization.thm12.step.proportional",
        paper: PAPER,
        result: "Theorem 12, after the proof [as printed, prose]: 'if we are running the process for continuous time tau, then T = tau/eta. r will end up being roughly proportional to sqrt(eta), so the above bound is then roughly proportional to eta' [proof step, closed form]",
        statement: "with T = tau/eta and Lemma 13's radius r = eta G + sqrt(2 eta)(2 sqrt d + sqrt(2 ln(2T/delta))), G = L(sqrt d + sqrt(2 ln(2T/delta)))/sqrt m (the pipeline's): rho = (alpha L^2 r^2 T eta/4)/(alpha L^2 tau eta (d + ln(tau/(eta delta)))) = (r/sqrt eta)^2/(4 (d + ln(T/delta))) satisfies 1 <= rho <= c = (1 + ln 2)((1 + 2 sqrt 2)^2 + 2 (1 + sqrt 2)^2)/4 = 11.14 (both at once: min(rho, 1 + c - rho) >= 1) on eta L^2/m in [1e-12, 1], d in [1, 10^6], T/delta in [1, 1e30]: proportional to eta up to the logarithm, with these constants",
        mutants: &[WITHOUT_LOG],
        known_false: false,
        tautologies: &[],
        perturbation: None,
    },
    form: ClosedForm {
        axes: RADIUS_BOX,
        relation: Relation::AtLeast,
        interval: proportional::<I>,
        point: proportional::<f64>,
        admits: None,
    },
    cases: radius_cases,
};

const GRADIENT_SHARE_LINEAR: Mutant = Mutant {
    name: "gradient-share-linear",
    description: "bound side: the gradient's share u/sqrt 2 (shrinking like eta) in place of sqrt(u/2) (like sqrt(eta)), u = eta L^2/m",
};

/// Lemma 13's intuition: the gradient's movement $\eta G$ is at most $\sqrt{u/2}$ times the
/// Brownian movement $\sqrt{2\eta}(2\sqrt d+\sqrt{2\ell})$, $u=\eta L^2/m$, since
/// $\sqrt d+\sqrt{2\ell}\le2\sqrt d+\sqrt{2\ell}$: a share that vanishes like $\sqrt\eta$ (the Brownian
/// part dominates once $\eta<2m/L^2$). Both sides per unit $\sqrt\eta$.
fn brownian_dominates<R: Real>(x: &[R], m: Option<&str>) -> (R, R) {
    let (gradient, brownian, _) = radius_parts(x);
    let u = x[0];
    let share = if m == Some(GRADIENT_SHARE_LINEAR.name) {
        u / R::cst(2.0).sqrt()
    } else {
        (u / R::cst(2.0)).sqrt()
    };
    (gradient, share * brownian)
}

static BROWNIAN_DOMINATES: FormClaim = FormClaim {
    info: ClaimInfo {
        id: "renyi_discretization.lemma13.step.brownian",
        paper: PAPER,
        result: "Lemma 13's intuition [as printed, prose]: 'the sqrt(eta) accounts for movement due to Brownian motion, which dominates the movement due to the gradient' [proof step, closed form; with the derived G]",
        statement: "eta G <= sqrt(eta L^2/(2m)) sqrt(2 eta)(2 sqrt d + sqrt(2 ln(2T/delta))) with G = L(sqrt d + sqrt(2 ln(2T/delta)))/sqrt m (the pipeline's), on eta L^2/m in [1e-12, 1], d in [1, 10^6], T/delta in [1, 1e30]: the gradient's share of the radius vanishes like sqrt(eta)",
        mutants: &[GRADIENT_SHARE_LINEAR],
        known_false: false,
        tautologies: &[],
        perturbation: None,
    },
    form: ClosedForm {
        axes: RADIUS_BOX,
        relation: Relation::AtMost,
        interval: brownian_dominates::<I>,
        point: brownian_dominates::<f64>,
        admits: None,
    },
    cases: radius_cases,
};

// ---------------------------------------------------------------------------------------------
// Cited facts about Rényi divergence (van Erven and Harremoës 2014), on random laws
// ---------------------------------------------------------------------------------------------

/// A random pair on 12 states: $P$ on 4 atoms, $Q$ of full support (so $D_\alpha(P\Vert Q)$ is
/// finite), drawn from `rng`.
fn random_pair<R: rand::Rng + ?Sized>(rng: &mut R) -> (Vec<f64>, Vec<f64>) {
    use dpclaims_empirical::contraction::random_sparse_law;
    (
        random_sparse_law(12, 4, rng),
        random_sparse_law(12, 12, rng),
    )
}

const DPI_HALVED: Mutant = Mutant {
    name: "halved",
    description: "bound side: half the divergence before the map",
};

static RENYI_DPI: StepClaim = StepClaim {
    info: ClaimInfo {
        id: "renyi_discretization.thm12.step.dpi",
        paper: PAPER,
        result: "Fact 4 (cited, van Erven and Harremoes 2014), used twice in Theorem 12's proof ('by post-processing'; the bot replacement, a map of the path): D_alpha(f#P || f#Q) <= D_alpha(P || Q) for a deterministic map f",
        statement: "largest ratio D_alpha(f#P || f#Q) / D_alpha(P || Q) <= 1 over random pairs on 12 states (P on 4 atoms, Q of full support) and maps f: the identity and random maps onto 2..6 states, to the relative tolerance 1e-9 (equality at the identity)",
        mutants: &[DPI_HALVED],
        known_false: false,
        tautologies: &[],
        perturbation: None,
    },
    cases: || {
        [0.5, 2.0, 8.0]
            .iter()
            .map(|a| params! { "alpha" => *a, "pairs" => 300, "tolerance" => 1e-9 })
            .collect()
    },
    measure: |case, run| {
        use dpclaims_empirical::contraction::{dpi_worst_ratio, renyi};
        use dpclaims_empirical::rng::StreamKey;
        let alpha = error::open_interval("alpha", case.f64("alpha")?, 0.0, 1e6)?;
        if alpha == 1.0 {
            return Err(ParamError::new("alpha", alpha, "an order other than 1"));
        }
        let n = case.u64("pairs")?;
        if n > 100_000 {
            return Err(ParamError::new("pairs", n, "at most 10^5 pairs"));
        }
        let tolerance = error::open_interval("tolerance", case.f64("tolerance")?, 0.0, 1e-3)?;
        let key = StreamKey::new(run.seed, &["renyi_discretization.thm12.step.dpi", "pairs"]);
        let factor = if is(run, &DPI_HALVED) { 0.5 } else { 1.0 };
        let worst = dpi_worst_ratio(
            &key,
            n,
            factor,
            |rng| random_pair(rng),
            |p, q| renyi(p, q, alpha),
        );
        // Log-sum-exp of 12 terms with logs of size up to ~40: relative error far below 1e-9.
        Ok(vec![computed(
            case.clone(),
            1.0 + tolerance,
            Relation::AtMost,
            worst,
            64.0,
            worst,
        )])
    },
};

const ORDER_REVERSED: Mutant = Mutant {
    name: "reversed",
    description: "the larger order's divergence on the left: D_beta <= D_alpha for alpha < beta",
};

static MONOTONE_ORDER: StepClaim = StepClaim {
    info: ClaimInfo {
        id: "renyi_discretization.main.step.monotone_order",
        paper: PAPER,
        result: "the final lemma's 'turn this into a bound on the alpha-Renyi divergence ... for any alpha if alpha' is large enough' rests on D_alpha being non-decreasing in its order (van Erven and Harremoes 2014, Thm 3; cited): D_alpha(P || Q) <= D_beta(P || Q) for alpha < beta",
        statement: "largest ratio D_alpha(P || Q) / D_beta(P || Q) <= 1 over random pairs on 12 states (P on 4 atoms, Q of full support), to the relative tolerance 1e-9",
        mutants: &[ORDER_REVERSED],
        known_false: false,
        tautologies: &[],
        perturbation: None,
    },
    cases: || {
        [(0.5, 2.0), (1.5, 2.0), (2.0, 8.0), (8.0, 64.0)]
            .iter()
            .map(|(a, b)| params! { "alpha" => *a, "beta" => *b, "pairs" => 300, "tolerance" => 1e-9 })
            .collect()
    },
    measure: |case, run| {
        use dpclaims_empirical::contraction::{renyi, worst_ratio};
        use dpclaims_empirical::rng::StreamKey;
        let alpha = error::open_interval("alpha", case.f64("alpha")?, 0.0, 1e6)?;
        let beta = error::open_interval("beta", case.f64("beta")?, alpha, 1e6)?;
        if alpha == 1.0 || beta == 1.0 {
            return Err(ParamError::new("alpha", alpha, "orders other than 1"));
        }
        let n = case.u64("pairs")?;
        if n > 100_000 {
            return Err(ParamError::new("pairs", n, "at most 10^5 pairs"));
        }
        let tolerance = error::open_interval("tolerance", case.f64("tolerance")?, 0.0, 1e-3)?;
        let key = StreamKey::new(
            run.seed,
            &["renyi_discretization.main.step.monotone_order", "pairs"],
        );
        let reversed = is(run, &ORDER_REVERSED);
        let worst = worst_ratio((0..n).map(|i| {
            let (p, q) = random_pair(&mut key.trial(i));
            let (a, b) = (renyi(&p, &q, alpha), renyi(&p, &q, beta));
            if reversed { (b, a) } else { (a, b) }
        }));
        Ok(vec![computed(
            case.clone(),
            1.0 + tolerance,
            Relation::AtMost,
            worst,
            64.0,
            worst,
        )])
    },
};

/// The step claims of seed 004, in registry order.
pub fn claims() -> Vec<&'static dyn dpclaims_core::claim::Claim> {
    vec![
        &PER_STEP,
        &GRADIENT_TAIL,
        &GRADIENT_TAIL_CORRECTED,
        &WEAK_TRIANGLE,
        &VW19,
        &PROPORTIONAL,
        &BROWNIAN_DOMINATES,
        &RENYI_DPI,
        &MONOTONE_ORDER,
    ]
}
