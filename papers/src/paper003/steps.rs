//! Proof steps of seed 003 (Zhou, Wu, Banerjee 2021, arXiv 2007.03813) that are pure algebra,
//! proved exactly by [`dpclaims_core::identity`] (identities of rational functions: both
//! $\le$ and $\ge$, no tolerance; several identities at once in fresh variables, [`both`]; an
//! implication by its certificate, a multiplier or a square). Our copy keeps the proofs in
//! prose (THEOREMS.md §6): the steps are those of the printed outlines in THEOREMS.md's
//! reconstruction. Each mutant perturbs one coefficient and must come out refuted. The maps are
//! in [`super::proof_map`].

use dpclaims_core::claim::{Claim, ClaimInfo, Mutant};
use dpclaims_core::identity::{Alg, Deg, Frac, Identity, both};
use dpclaims_core::params;
use dpclaims_core::step::exact_info;
use dpclaims_core::step::{IdentityClaim, StepClaim, computed, is};
use dpclaims_core::verdict::Relation;
use dpclaims_theorems::ParamError;

const PAPER: &str = "003_533141984a6e2a14.txt — Zhou, Wu, Banerjee (2021), arXiv 2007.03813";

const fn info(
    id: &'static str,
    result: &'static str,
    statement: &'static str,
    mutants: &'static [Mutant],
) -> ClaimInfo {
    exact_info(PAPER, id, result, statement, mutants)
}

fn pick(m: Option<&str>, mutant: &Mutant) -> bool {
    m == Some(mutant.name)
}

// ---------------------------------------------------------------------------------------------

const MULTIPLIER_WITHOUT_Q: Mutant = Mutant {
    name: "multiplier-without-q",
    description: "bound side: z = sqrt(c2 T ln(1/delta))/eps, without the sampling rate q",
};

/// The noise multiplier of the privacy calibration: at $\sigma^2=c_2G^2TL/(n^2\varepsilon^2)$
/// ($L=\ln(1/\delta)$) and $q=B/n$, $z^2=(\sigma B/G)^2=q^2c_2TL/\varepsilon^2$ (the squares of
/// two nonnegative numbers).
fn multiplier<R: Alg>(x: &[R], m: Option<&str>) -> (R, R) {
    let (g, t, l, n, eps, b, c2) = (x[0], x[1], x[2], x[3], x[4], x[5], x[6]);
    let sigma2 = c2 * g.sqr() * t * l / (n.sqr() * eps.sqr());
    let q = if pick(m, &MULTIPLIER_WITHOUT_Q) {
        R::int(1)
    } else {
        b / n
    };
    (sigma2 * b.sqr() / g.sqr(), q.sqr() * c2 * t * l / eps.sqr())
}

static MULTIPLIER: IdentityClaim = IdentityClaim {
    info: info(
        "subspace.privacy.step.multiplier",
        "PDP-SGD privacy: the noise multiplier of sigma^2 = c2 G^2 T ln(1/delta)/(n^2 eps^2) [proof step, identity]",
        "(sigma B/G)^2 = q^2 c2 T ln(1/delta)/eps^2 at sigma^2 = c2 G^2 T ln(1/delta)/(n^2 eps^2), q = B/n, exactly",
        &[MULTIPLIER_WITHOUT_Q],
    ),
    identity: Identity {
        vars: &["G", "T", "L", "n", "epsilon", "B", "c2"],
        exact: multiplier::<Frac>,
        degree: multiplier::<Deg>,
    },
    cases: || {
        vec![
            params! { "G" => 1.0, "T" => 2400.0, "L" => 11.5, "n" => 10000.0, "epsilon" => 0.25, "B" => 250.0, "c2" => 2.25 },
        ]
    },
};

// ---------------------------------------------------------------------------------------------

const RANK_ONE_SIGN: Mutant = Mutant {
    name: "rank-one-sign",
    description: "bound side: a_i (a_j - b_j) - (a_i - b_i) b_j",
};

/// Theorem 1's increments: entrywise
/// $(aa^\top-bb^\top)_{ij}=a_i(a_j-b_j)+(a_i-b_i)b_j$, i.e. $aa^\top-bb^\top=a(a-b)^\top+(a-b)b^\top$
/// in every dimension (the identity in the four scalars covers $i=j$ at $a_j=a_i$, $b_j=b_i$);
/// with A1 and A2 the triangle inequality then gives
/// $\Vert aa^\top-bb^\top\Vert\le2G\rho d(w,w')$.
fn rank_one<R: Alg>(x: &[R], m: Option<&str>) -> (R, R) {
    let (ai, aj, bi, bj) = (x[0], x[1], x[2], x[3]);
    let second = (ai - bi) * bj;
    let second = if pick(m, &RANK_ONE_SIGN) {
        -second
    } else {
        second
    };
    (ai * aj - bi * bj, ai * (aj - bj) + second)
}

static RANK_ONE: IdentityClaim = IdentityClaim {
    info: info(
        "subspace.thm1.step.rank_one",
        "Theorem 1's proof (generic chaining): the increments of w -> grad l grad l^T [proof step, identity]",
        "a a^T - b b^T = a (a-b)^T + (a-b) b^T entrywise, exactly (so ||a a^T - b b^T|| <= (||a|| + ||b||) ||a - b|| <= 2 G rho d(w, w') under A1-A2)",
        &[RANK_ONE_SIGN],
    ),
    identity: Identity {
        vars: &["a_i", "a_j", "b_i", "b_j"],
        exact: rank_one::<Frac>,
        degree: rank_one::<Deg>,
    },
    cases: || {
        vec![
            params! { "a_i" => 0.5, "a_j" => -1.25, "b_i" => 0.75, "b_j" => 2.0 },
            params! { "a_i" => 3.0, "a_j" => 3.0, "b_i" => -1.0, "b_j" => -1.0 },
        ]
    },
};

// ---------------------------------------------------------------------------------------------

const DIVIDE_BY_T_ONLY: Mutant = Mutant {
    name: "divide-by-t-only",
    description: "measured side: the averaged bound with (L0 - L*)/T for (L0 - L*)/(eta T)",
};

/// Theorem 3 (S3): the summed descent inequality
/// $\eta\sum_t a_t\le\Delta+T\rho\eta^2V/2$ ($A=\sum_ta_t$, $a_t=E\Vert\hat P_t\nabla\hat L_n(w_t)\Vert^2$,
/// $\Delta=\hat L_n(w_0)-\hat L_n^{\ast}$, $V=G^2+k\sigma^2$) divided by $\eta T$: the averaged
/// inequality's slack is the summed one's times $1/(\eta T)>0$.
fn thm3_average<R: Alg>(x: &[R], m: Option<&str>) -> (R, R) {
    let (eta, t, a, delta, rho, v) = (x[0], x[1], x[2], x[3], x[4], x[5]);
    let two = R::int(2);
    let summed = delta + t * rho * eta.sqr() * v / two - eta * a;
    let first = if pick(m, &DIVIDE_BY_T_ONLY) {
        delta / t
    } else {
        delta / (eta * t)
    };
    let averaged = first + rho * eta * v / two - a / t;
    (averaged, summed / (eta * t))
}

static THM3_AVERAGE: IdentityClaim = IdentityClaim {
    info: info(
        "subspace.thm3.step.average",
        "Theorem 3's proof (S3): sum the descent inequalities over t and divide by eta T [proof step, certificate identity]",
        "the slack of (1/T) sum_t a_t <= Delta/(eta T) + rho eta V/2 is the slack of eta sum_t a_t <= Delta + T rho eta^2 V/2 over eta T, exactly",
        &[DIVIDE_BY_T_ONLY],
    ),
    identity: Identity {
        vars: &["eta", "T", "A", "Delta", "rho", "V"],
        exact: thm3_average::<Frac>,
        degree: thm3_average::<Deg>,
    },
    cases: || {
        vec![
            params! { "eta" => 0.125, "T" => 64.0, "A" => 3.0, "Delta" => 2.5, "rho" => 1.0, "V" => 1.5 },
        ]
    },
};

const PLUG_IN_K_ON_G: Mutant = Mutant {
    name: "plug-in-without-k",
    description: "bound side: rho (G^2 + c2 G^2 ln(1/delta))/2, the rank k dropped",
};

/// Theorem 3's plug-in at $\eta=1/\sqrt T$, $\sqrt T=n\varepsilon=s$,
/// $\sigma^2=c_2G^2TL/(n^2\varepsilon^2)$ ($L=\ln(1/\delta)$, $g=G^2$, $C=c_2L$):
/// $\frac\Delta{\eta T}+\frac{\rho\eta}2(G^2+k\sigma^2)=\frac{\Delta+\rho(G^2+kc_2G^2L)/2}{n\varepsilon}$.
fn thm3_plug_in<R: Alg>(x: &[R], m: Option<&str>) -> (R, R) {
    let (s, delta, rho, g, k, c) = (x[0], x[1], x[2], x[3], x[4], x[5]);
    let (one, two) = (R::int(1), R::int(2));
    let (t, eta) = (s * s, one / s);
    let sigma2 = c * g * t / (s * s);
    let kk = if pick(m, &PLUG_IN_K_ON_G) { one } else { k };
    (
        delta / (eta * t) + rho * eta / two * (g + k * sigma2),
        (delta + rho * (g + kk * c * g) / two) / s,
    )
}

static THM3_PLUG_IN: IdentityClaim = IdentityClaim {
    info: info(
        "subspace.thm3.step.plug_in",
        "Theorem 3 (S3) at eta = 1/sqrt(T), T = n^2 eps^2, sigma^2 = c2 G^2 T ln(1/delta)/(n^2 eps^2) [proof step, substitution identity]",
        "Delta/(eta T) + rho eta (G^2 + k sigma^2)/2 = [Delta + rho (G^2 + k c2 G^2 ln(1/delta))/2]/(n eps), exactly (s = n eps, C = c2 ln(1/delta))",
        &[PLUG_IN_K_ON_G],
    ),
    identity: Identity {
        vars: &["s", "Delta", "rho", "G2", "k", "C"],
        exact: thm3_plug_in::<Frac>,
        degree: thm3_plug_in::<Deg>,
    },
    cases: || {
        vec![
            params! { "s" => 50.0, "Delta" => 2.5, "rho" => 1.0, "G2" => 1.0, "k" => 50.0, "C" => 24.75 },
        ]
    },
};

// ---------------------------------------------------------------------------------------------

const FOUR_FOR_EIGHT: Mutant = Mutant {
    name: "four-for-eight",
    description: "bound side: 4 G^2 ||M - Sigma||^2/alpha^2 for 8 G^2 ||M - Sigma||^2/alpha^2",
};

/// Theorem 4's pathwise chain (S4), three identities at once (coefficients of $1,z,z^2$):
/// Pythagoras and the dominance ratio, $a+b=(1+c^2)a$ at $c^2=b/a$
/// ($a=\Vert P\nabla\Vert^2$, $b=\Vert(I-P)\nabla\Vert^2$); the certificate of
/// $(x+y)^2\le2x^2+2y^2$, $2x^2+2y^2-(x+y)^2=(x-y)^2$ ($x=\Vert\hat P\nabla\Vert$,
/// $y=\Vert(P-\hat P)\nabla\Vert$, with $\Vert P\nabla\Vert\le x+y$); and Davis–Kahan's
/// $\Vert\hat P-P\Vert\le2D/\alpha$ squared into $2G^2(2D/\alpha)^2=8G^2D^2/\alpha^2$.
fn thm4<R: Alg>(x: &[R], m: Option<&str>) -> (R, R) {
    let (a, b, xx, y, g, d, alpha, z) = (x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7]);
    let c2 = b / a;
    let pyth = (a + b, (R::int(1) + c2) * a);
    let young = (
        R::int(2) * xx.sqr() + R::int(2) * y.sqr() - (xx + y).sqr(),
        (xx - y).sqr(),
    );
    let eight = if pick(m, &FOUR_FOR_EIGHT) { 4 } else { 8 };
    let dk = (
        R::int(2) * g.sqr() * (R::int(2) * d / alpha).sqr(),
        R::int(eight) * g.sqr() * d.sqr() / alpha.sqr(),
    );
    // The three at once: an identity in z holds iff the coefficients of 1, z and z^2 agree.
    let (l, r) = both(z, pyth, young);
    (l + z.sqr() * dk.0, r + z.sqr() * dk.1)
}

static THM4: IdentityClaim = IdentityClaim {
    info: info(
        "subspace.thm4.step.chain",
        "Theorem 4's proof (Appendix B, S4): split the gradient into its projected and residual parts [proof step, identities and a square certificate]",
        "a + b = (1 + b/a) a; 2x^2 + 2y^2 - (x+y)^2 = (x-y)^2; 2 G^2 (2D/alpha)^2 = 8 G^2 D^2/alpha^2, exactly",
        &[FOUR_FOR_EIGHT],
    ),
    identity: Identity {
        vars: &["a", "b", "x", "y", "G", "D", "alpha", "z"],
        exact: thm4::<Frac>,
        degree: thm4::<Deg>,
    },
    cases: || {
        vec![
            params! { "a" => 2.0, "b" => 0.25, "x" => 1.25, "y" => 0.5, "G" => 1.0, "D" => 0.125, "alpha" => 0.5, "z" => 1.0 },
            params! { "a" => 0.5, "b" => 3.0, "x" => 0.75, "y" => 2.0, "G" => 2.0, "D" => 0.25, "alpha" => 0.75, "z" => 3.0 },
        ]
    },
};

// ---------------------------------------------------------------------------------------------

const CROSS_TERM_ONCE: Mutant = Mutant {
    name: "cross-term-once",
    description: "bound side: -eta x y for -2 eta x y",
};

/// Theorem 5's proof (convex, S5): the square of a step, coordinatewise
/// $(x-\eta y)^2=x^2-2\eta xy+\eta^2y^2$ ($x$ a coordinate of $w_t-u$, $y$ of the noisy projected
/// gradient), summed over coordinates: $\Vert w_{t+1}-u\Vert^2=\Vert w_t-u\Vert^2-2\eta\langle y,w_t-u\rangle+\eta^2\Vert y\Vert^2$.
fn expand<R: Alg>(x: &[R], m: Option<&str>) -> (R, R) {
    let (xx, y, eta) = (x[0], x[1], x[2]);
    let c = if pick(m, &CROSS_TERM_ONCE) { 1 } else { 2 };
    (
        (xx - eta * y).sqr(),
        xx.sqr() - R::int(c) * eta * xx * y + eta.sqr() * y.sqr(),
    )
}

static EXPAND: IdentityClaim = IdentityClaim {
    info: info(
        "subspace.thm5.step.expand",
        "Theorem 5's proof (Appendix C, S5): expand ||w_{t+1} - u||^2 [proof step, identity]",
        "(x - eta y)^2 = x^2 - 2 eta x y + eta^2 y^2 per coordinate, exactly",
        &[CROSS_TERM_ONCE],
    ),
    identity: Identity {
        vars: &["x", "y", "eta"],
        exact: expand::<Frac>,
        degree: expand::<Deg>,
    },
    cases: || {
        vec![
            params! { "x" => 1.5, "y" => -0.25, "eta" => 0.125 },
            params! { "x" => -2.0, "y" => 3.0, "eta" => 0.5 },
        ]
    },
};

// ---------------------------------------------------------------------------------------------
// Theorem 5's proof: the two steps that are linear algebra and convexity, at random instances
// ---------------------------------------------------------------------------------------------

/// A $p\times k$ matrix with orthonormal columns spanning a uniformly random subspace, and a
/// sampler of standard normals, from `rng`.
fn random_basis<R: rand::Rng + ?Sized>(p: usize, k: usize, rng: &mut R) -> nalgebra::DMatrix<f64> {
    use dpclaims_empirical::rand_distr::{Distribution, StandardNormal};
    let g = nalgebra::DMatrix::<f64>::from_fn(p, k, |_, _| StandardNormal.sample(rng));
    g.qr().q().columns(0, k).into_owned()
}

/// The projection onto the span of the eigenvectors of the `k` largest eigenvalues of the
/// symmetric `m`.
fn top_projection(m: &nalgebra::DMatrix<f64>, k: usize) -> nalgebra::DMatrix<f64> {
    let e = m.clone().symmetric_eigen();
    let mut order: Vec<usize> = (0..m.nrows()).collect();
    order.sort_by(|&i, &j| e.eigenvalues[j].total_cmp(&e.eigenvalues[i]));
    let mut p = nalgebra::DMatrix::<f64>::zeros(m.nrows(), m.nrows());
    for &i in order.iter().take(k) {
        let v = e.eigenvectors.column(i);
        p += &v * v.transpose();
    }
    p
}

const TOP_K_MINUS_ONE: Mutant = Mutant {
    name: "top-k-minus-one",
    description: "P^ from the top k - 1 eigenvectors of M_t instead of k",
};

static RANGE: StepClaim = StepClaim {
    info: ClaimInfo {
        id: "subspace.thm5.step.range",
        paper: PAPER,
        result: "Theorem 5's proof (Appendix C) [reconstructed]: rank Sigma_t = rank M_t = k implies range M_t = range Sigma_t, hence P^_t = P_t (the public gradients lie in range Sigma_t)",
        statement: "largest Frobenius norm ||P^_t - P_t|| over 50 instances: Sigma_t of rank k with a uniformly random range in R^6, m public gradients U z (z standard normal, so rank M_t = k almost surely), P^_t the top-k eigenprojection of M_t = (1/m) sum g g^T; at most 1e-8 (the eigen-solver's error, far below any gap of a wrong subspace, which is >= 1 in this norm; a tolerance, not a tight bound: detection threshold of the bound 0.99)",
        mutants: &[TOP_K_MINUS_ONE],
        known_false: false,
        tautologies: &[],
        perturbation: None,
    },
    cases: || {
        [(1, 1), (2, 2), (3, 3), (3, 10)]
            .iter()
            .map(|(k, m)| params! { "k" => *k, "m" => *m, "instances" => 50 })
            .collect()
    },
    measure: |case, run| {
        use dpclaims_empirical::rand_distr::{Distribution, StandardNormal};
        use dpclaims_empirical::rng::StreamKey;
        let p = 6usize;
        let k = case.u64("k")? as usize;
        let m = case.u64("m")? as usize;
        if !(1..p).contains(&k) || m < k || m > 10_000 {
            return Err(ParamError::new(
                "k",
                k as f64,
                "1 <= k < 6 and k <= m <= 10^4",
            ));
        }
        let n = case.u64("instances")?;
        if n > 10_000 {
            return Err(ParamError::new("instances", n, "at most 10^4 instances"));
        }
        let kept = if is(run, &TOP_K_MINUS_ONE) { k - 1 } else { k };
        let key = StreamKey::new(run.seed, &["subspace.thm5.step.range", "instances"]);
        let mut worst: f64 = 0.0;
        for i in 0..n {
            let mut rng = key.trial(i);
            let u = random_basis(p, k, &mut rng);
            let mut second = nalgebra::DMatrix::<f64>::zeros(p, p);
            for _ in 0..m {
                let z =
                    nalgebra::DVector::<f64>::from_fn(k, |_, _| StandardNormal.sample(&mut rng));
                let g = &u * z;
                second += &g * g.transpose() / m as f64;
            }
            let population = &u * u.transpose();
            worst = worst.max((top_projection(&second, kept) - population).norm());
        }
        Ok(vec![computed(
            case.clone(),
            1e-8,
            Relation::AtMost,
            worst,
            1.0,
            0.0,
        )])
    },
};

const WITHOUT_CORRECTION: Mutant = Mutant {
    name: "without-correction",
    description: "bound side: <P^ grad L, w_t - u> only (the term <(P - P^) grad L, w_t - u> dropped)",
};

static CONVEXITY: StepClaim = StepClaim {
    info: ClaimInfo {
        id: "subspace.thm5.step.convexity",
        paper: PAPER,
        result: "Theorem 5's proof (Appendix C) [reconstructed]: convexity, L(w_t) - L(u) <= <grad L(w_t), w_t - u> = <P^ grad L, w_t - u> + <(P - P^) grad L, w_t - u>, with grad L in range P_t",
        statement: "largest (L(w) - L(u)) - (<P^ grad L(w), w - u> + <(P - P^) grad L(w), w - u>) <= 1e-12 over 200 instances in R^6: L(w) = h(P w), h(v) = log sum_i exp(<a_i, v>) + |v|^2/2 (convex; grad L = P grad h(P w) in range P), P and P^ projections on independent uniformly random k-dimensional subspaces, w, u, a_i standard normal (rounding of a few dozen operations on values of order 10; the bound is a rounding tolerance and the inequality is strict at these instances, so the detection threshold of the bound is far above 1: only the mutant tells a wrong split)",
        mutants: &[WITHOUT_CORRECTION],
        known_false: false,
        tautologies: &[],
        perturbation: None,
    },
    cases: || {
        [1, 2, 4]
            .iter()
            .map(|k| params! { "k" => *k, "instances" => 200 })
            .collect()
    },
    measure: |case, run| {
        use dpclaims_empirical::rand_distr::{Distribution, StandardNormal};
        use dpclaims_empirical::rng::StreamKey;
        use nalgebra::{DMatrix, DVector};
        let p = 6usize;
        let k = case.u64("k")? as usize;
        if !(1..p).contains(&k) {
            return Err(ParamError::new("k", k as f64, "1 <= k < 6"));
        }
        let n = case.u64("instances")?;
        if n > 100_000 {
            return Err(ParamError::new("instances", n, "at most 10^5 instances"));
        }
        let corrected = !is(run, &WITHOUT_CORRECTION);
        let key = StreamKey::new(run.seed, &["subspace.thm5.step.convexity", "instances"]);
        let mut worst = f64::NEG_INFINITY;
        for i in 0..n {
            let mut rng = key.trial(i);
            let proj = |rng: &mut _| {
                let b = random_basis(p, k, rng);
                &b * b.transpose()
            };
            let (big_p, p_hat) = (proj(&mut rng), proj(&mut rng));
            let a = DMatrix::<f64>::from_fn(5, p, |_, _| StandardNormal.sample(&mut rng));
            let mut normal = || DVector::<f64>::from_fn(p, |_, _| StandardNormal.sample(&mut rng));
            let (w, u) = (normal(), normal());
            // h(v) = logsumexp(A v) + |v|^2/2; grad h = A^T softmax(A v) + v.
            let h = |v: &DVector<f64>| {
                let z = &a * v;
                let max = z.max();
                max + z.map(|x| (x - max).exp()).sum().ln() + v.norm_squared() / 2.0
            };
            let loss = |x: &DVector<f64>| h(&(&big_p * x));
            let v = &big_p * &w;
            let z = &a * &v;
            let max = z.max();
            let e = z.map(|x| (x - max).exp());
            let softmax = &e / e.sum();
            let grad = &big_p * (a.transpose() * softmax + &v);
            let d = &w - &u;
            let lhs = loss(&w) - loss(&u);
            let mut rhs = (&p_hat * &grad).dot(&d);
            if corrected {
                rhs += ((&big_p - &p_hat) * &grad).dot(&d);
            }
            worst = worst.max(lhs - rhs);
        }
        Ok(vec![computed(
            case.clone(),
            1e-12,
            Relation::AtMost,
            worst,
            1.0,
            0.0,
        )])
    },
};

/// The proof-step claims of seed 003, in registry order.
pub fn claims() -> Vec<&'static dyn Claim> {
    vec![
        &MULTIPLIER,
        &RANK_ONE,
        &THM3_AVERAGE,
        &THM3_PLUG_IN,
        &THM4,
        &EXPAND,
        &RANGE,
        &CONVEXITY,
    ]
}
