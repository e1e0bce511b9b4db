//! Proof steps of seed 000 that are pure algebra (an identity, a substitution, or the
//! rearrangement of an inequality), proved exactly by [`dpclaims_core::identity`]: each is an
//! identity of rational functions, so it gives the step's $\le$ and $\ge$ at once, with no
//! tolerance. Where a step holds two identities, they are proved together as
//! $a_1+z a_2=b_1+z b_2$ in a fresh variable $z$ (an identity in $z$ holds exactly when both
//! coefficients of $z$ agree). An implication "$h\ge0\Rightarrow c\ge0$" is proved by its
//! certificate $c=\mu h$ with a multiplier $\mu\ge0$ on the step's domain (the claim says
//! which). Each mutant perturbs one coefficient and must come out refuted.

use super::*;
use dpclaims_core::identity::{Alg, Deg, Frac, Identity, both};
use dpclaims_core::step::IdentityClaim;
use dpclaims_core::step::exact_info;

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

const LAMBDA1_DOUBLED: Mutant = Mutant {
    name: "lambda1-doubled",
    description: "measured side: lambda_1 = 2/eta_1",
};

/// $1-\lambda_1\eta_1=0$ at $\lambda_1=1/\eta_1$.
fn prop1_lambda1<R: Alg>(x: &[R], m: Option<&str>) -> (R, R) {
    let eta = x[0];
    let c = if pick(m, &LAMBDA1_DOUBLED) { 2 } else { 1 };
    let lambda = R::int(c) / eta;
    (R::int(1) - lambda * eta, R::int(0))
}

pub(super) static PROP1_LAMBDA1: IdentityClaim = IdentityClaim {
    info: info(
        "multipass.prop1.step.lambda1",
        "Proposition 1's proof: 'Note that 1 - lambda_1 eta_1 = 0' [proof step, identity]",
        "1 - lambda_1 eta_1 = 0 with lambda_1 = 1/eta_1 (the hypothesis), exactly",
        &[LAMBDA1_DOUBLED],
    ),
    identity: Identity {
        vars: &["eta1"],
        exact: prop1_lambda1::<Frac>,
        degree: prop1_lambda1::<Deg>,
    },
    cases: || {
        [0.25, 0.5, 3.0]
            .into_iter()
            .map(|e| params! { "eta1" => e })
            .collect()
    },
};

// ---------------------------------------------------------------------------------------------

const DIVIDE_BY_PREVIOUS: Mutant = Mutant {
    name: "divide-by-previous",
    description: "measured side: (1 - lambda_t eta_t)/eta_{t-1} for (1 - lambda_t eta_t)/eta_t",
};

/// Summing Lemmas 2 and 3 and dividing by $\eta_t$: the coefficient of
/// $W_2(\tilde p_{t-1},p)^2$ is $(1-\lambda_t\eta_t)/\eta_t\le1/\eta_{t-1}$, whose slack is the
/// hypothesis' slack: $\frac1{\eta_{t-1}}-\frac{1-\lambda_t\eta_t}{\eta_t}=\lambda_t-(\frac1{\eta_t}-\frac1{\eta_{t-1}})$
/// (multiplier $1$); and $\beta_t\ln(p/q)=\beta_t\ln p+g_t+\text{const}$ because
/// $\beta_t\frac{\Vert w\Vert^2}{2\beta_0}=\lambda_t\frac{\Vert w\Vert^2}{2}$ at $\beta_t=\lambda_t\beta_0$
/// ($r_2=\Vert w\Vert^2$; the constant is $\beta_t\frac d2\ln(2\pi\beta_0)$).
fn prop1_divide<R: Alg>(x: &[R], m: Option<&str>) -> (R, R) {
    let (eta, prev, lambda, beta0, r2, z) = (x[0], x[1], x[2], x[3], x[4], x[5]);
    let one = R::int(1);
    let denom = if pick(m, &DIVIDE_BY_PREVIOUS) {
        prev
    } else {
        eta
    };
    let slack = (
        one / prev - (one - lambda * eta) / denom,
        lambda - (one / eta - one / prev),
    );
    let beta_t = lambda * beta0;
    let gibbs = (beta_t * r2 / (R::int(2) * beta0), lambda * r2 / R::int(2));
    both(z, slack, gibbs)
}

pub(super) static PROP1_DIVIDE: IdentityClaim = IdentityClaim {
    info: info(
        "multipass.prop1.step.divide",
        "Proposition 1's proof: sum Lemmas 2 and 3 and divide by eta_t [proof step, identity]",
        "1/eta_{t-1} - (1 - lambda_t eta_t)/eta_t = lambda_t - (1/eta_t - 1/eta_{t-1}) (so the hypothesis on lambda_t gives the coefficient), and beta_t ||w||^2/(2 beta0) = lambda_t ||w||^2/2 at beta_t = lambda_t beta0, exactly",
        &[DIVIDE_BY_PREVIOUS],
    ),
    identity: Identity {
        vars: &["eta", "eta_prev", "lambda", "beta0", "r2", "z"],
        exact: prop1_divide::<Frac>,
        degree: prop1_divide::<Deg>,
    },
    cases: || {
        vec![
            params! { "eta" => 0.25, "eta_prev" => 0.5, "lambda" => 2.5, "beta0" => 0.125, "r2" => 3.0, "z" => 1.0 },
            params! { "eta" => 1.0, "eta_prev" => 1.0, "lambda" => 0.5, "beta0" => 2.0, "r2" => 0.5, "z" => 0.0 },
        ]
    },
};

// ---------------------------------------------------------------------------------------------

const ETA_NOT_SQUARED: Mutant = Mutant {
    name: "eta-not-squared",
    description: "bound side: eta_t G^2 for eta_t^2 G^2",
};

/// Lemma 3's second form from its first: with $M=E_{p_t}\Vert\nabla l_t\Vert^2\le G^2$
/// (Assumption 2), the slack of
/// $W_0-W_1+\eta_t^2G^2\ge W_0-W_1+\eta_t^2M$ is $\eta_t^2(G^2-M)$ (multiplier $\eta_t^2\ge0$).
fn lemma3_g<R: Alg>(x: &[R], m: Option<&str>) -> (R, R) {
    let (eta, g, mm, w0, w1) = (x[0], x[1], x[2], x[3], x[4]);
    let step = if pick(m, &ETA_NOT_SQUARED) {
        eta
    } else {
        eta * eta
    };
    let second = w0 - w1 + step * g.sqr();
    let first = w0 - w1 + eta.sqr() * mm;
    (second - first, eta.sqr() * (g.sqr() - mm))
}

pub(super) static LEMMA3_G: IdentityClaim = IdentityClaim {
    info: info(
        "multipass.lemma3.step.g_bound",
        "Lemma 3's second form from its first (Assumption 2) [proof step, certificate identity]",
        "(W0 - W1 + eta^2 G^2) - (W0 - W1 + eta^2 E||grad l||^2) = eta^2 (G^2 - E||grad l||^2), exactly: the second form follows with multiplier eta^2 >= 0",
        &[ETA_NOT_SQUARED],
    ),
    identity: Identity {
        vars: &["eta", "G", "M", "W0", "W1"],
        exact: lemma3_g::<Frac>,
        degree: lemma3_g::<Deg>,
    },
    cases: || {
        vec![
            params! { "eta" => 0.25, "G" => 2.0, "M" => 1.5, "W0" => 3.0, "W1" => 0.5 },
            params! { "eta" => 3.0, "G" => 0.5, "M" => 0.25, "W0" => 0.0, "W1" => 1.0 },
        ]
    },
};

// ---------------------------------------------------------------------------------------------

const HALF_PREVIOUS: Mutant = Mutant {
    name: "half-previous",
    description: "lambda_s = 1/eta_s - 1/(2 eta_{s-1})",
};

fn minimal_lambda<R: Alg>(eta: R, prev: R, m: Option<&str>) -> R {
    let c = if pick(m, &HALF_PREVIOUS) { 2 } else { 1 };
    R::int(1) / eta - R::int(1) / (R::int(c) * prev)
}

/// Lemma 5: $(1-\lambda_s\eta_s)^2D=\frac{\eta_s^2}{\eta_{s-1}^2}D$ and
/// $1-\lambda_s\eta_s=\eta_s/\eta_{s-1}$ at $\lambda_s=\frac1{\eta_s}-\frac1{\eta_{s-1}}$
/// ($D=E\Vert\tilde w-\tilde w'\Vert^2$).
fn lemma5_shrink<R: Alg>(x: &[R], m: Option<&str>) -> (R, R) {
    let (eta, prev, d, z) = (x[0], x[1], x[2], x[3]);
    let lambda = minimal_lambda(eta, prev, m);
    let f = R::int(1) - lambda * eta;
    both(
        z,
        (f.sqr() * d, eta.sqr() / prev.sqr() * d),
        (f, eta / prev),
    )
}

pub(super) static LEMMA5_SHRINK: IdentityClaim = IdentityClaim {
    info: info(
        "stability.lemma5.step.shrink",
        "Lemma 5's proof: (1 - lambda_s eta_s)^2 E||w~ - w~'||^2 = (eta_s^2/eta_{s-1}^2) E||w~ - w~'||^2 [proof step, identity at Theorem 2's lambda_s]",
        "1 - lambda_s eta_s = eta_s/eta_{s-1} and its square times D, exactly, at lambda_s = 1/eta_s - 1/eta_{s-1} (Theorem 2's lambda_s; Lemma 5's statement does not assume it, THEOREMS_NOTES.md)",
        &[HALF_PREVIOUS],
    ),
    identity: Identity {
        vars: &["eta", "eta_prev", "D", "z"],
        exact: lemma5_shrink::<Frac>,
        degree: lemma5_shrink::<Deg>,
    },
    cases: || {
        vec![
            params! { "eta" => 0.25, "eta_prev" => 0.5, "D" => 3.0, "z" => 1.0 },
            params! { "eta" => 0.125, "eta_prev" => 0.75, "D" => 0.5, "z" => 2.0 },
        ]
    },
};

// ---------------------------------------------------------------------------------------------

/// Corollary 2's $\tilde\lambda_T=\sum_t\lambda_t=1/\eta_T$ by induction on $T$: the base
/// $\lambda_1\eta_1=1$ and the step $\frac1{\eta_T}+\lambda_{T+1}=\frac1{\eta_{T+1}}$ at
/// $\lambda_{T+1}=\frac1{\eta_{T+1}}-\frac1{\eta_T}$.
fn cor2_telescoping<R: Alg>(x: &[R], m: Option<&str>) -> (R, R) {
    let (eta1, eta, next, z) = (x[0], x[1], x[2], x[3]);
    let base = ((R::int(1) / eta1) * eta1, R::int(1));
    let step = (
        R::int(1) / eta + minimal_lambda(next, eta, m),
        R::int(1) / next,
    );
    both(z, base, step)
}

pub(super) static COR2_TELESCOPING: IdentityClaim = IdentityClaim {
    info: info(
        "multipass.cor2.step.telescoping",
        "Corollary 2: lambda~_T = sum_t lambda_t = 1/eta_T [proof step, identity; induction on T]",
        "lambda_1 eta_1 = 1 and 1/eta_T + (1/eta_{T+1} - 1/eta_T) = 1/eta_{T+1}, exactly (the minimal lambda_t of Theorem 2)",
        &[HALF_PREVIOUS],
    ),
    identity: Identity {
        vars: &["eta1", "eta", "eta_next", "z"],
        exact: cor2_telescoping::<Frac>,
        degree: cor2_telescoping::<Deg>,
    },
    cases: || {
        vec![
            params! { "eta1" => 0.5, "eta" => 0.25, "eta_next" => 0.125, "z" => 1.0 },
            params! { "eta1" => 3.0, "eta" => 2.0, "eta_next" => 1.5, "z" => 0.5 },
        ]
    },
};

// ---------------------------------------------------------------------------------------------

const VARIANCE_WITHOUT_FACTOR: Mutant = Mutant {
    name: "variance-without-factor",
    description: "measured side: noise variance lambda eta beta0 for lambda eta (2 - lambda eta) beta0",
};

/// Proposition 3's rewriting of Algorithm 1's step $t$ as Lemma 6's mechanism:
/// $(1-\lambda_t\eta_t)\eta_t=\eta_t^2/\eta_{t-1}$ (the gradient's step) and
/// $\lambda_t\eta_t(2-\lambda_t\eta_t)\beta_0=(1-\eta_t^2/\eta_{t-1}^2)\beta_0$ (the noise
/// variance), at $\lambda_t=\frac1{\eta_t}-\frac1{\eta_{t-1}}$.
fn prop3_rewrite<R: Alg>(x: &[R], m: Option<&str>) -> (R, R) {
    let (eta, prev, beta0, z) = (x[0], x[1], x[2], x[3]);
    let le = minimal_lambda(eta, prev, None) * eta;
    let one = R::int(1);
    let var = if pick(m, &VARIANCE_WITHOUT_FACTOR) {
        le * beta0
    } else {
        le * (R::int(2) - le) * beta0
    };
    both(
        z,
        ((one - le) * eta, eta.sqr() / prev),
        (var, (one - eta.sqr() / prev.sqr()) * beta0),
    )
}

pub(super) static PROP3_REWRITE: IdentityClaim = IdentityClaim {
    info: info(
        "multipass.prop3.step.rewrite",
        "Proposition 3's proof: step t is Lemma 6's mechanism with eta = eta_t^2/eta_{t-1}, sigma^2 = (1 - eta_t^2/eta_{t-1}^2) beta0 [proof step, identity]",
        "(1 - lambda_t eta_t) eta_t = eta_t^2/eta_{t-1} and lambda_t eta_t (2 - lambda_t eta_t) beta0 = (1 - eta_t^2/eta_{t-1}^2) beta0 at lambda_t = 1/eta_t - 1/eta_{t-1}, exactly",
        &[VARIANCE_WITHOUT_FACTOR],
    ),
    identity: Identity {
        vars: &["eta", "eta_prev", "beta0", "z"],
        exact: prop3_rewrite::<Frac>,
        degree: prop3_rewrite::<Deg>,
    },
    cases: || {
        vec![
            params! { "eta" => 0.25, "eta_prev" => 0.5, "beta0" => 2.0, "z" => 1.0 },
            params! { "eta" => 0.375, "eta_prev" => 0.5, "beta0" => 0.125, "z" => 3.0 },
        ]
    },
};

// ---------------------------------------------------------------------------------------------

const EPS_NOT_SQUARED: Mutant = Mutant {
    name: "eps-not-squared",
    description: "bound side: beta0 = eta0^2/(eps n^(alpha-1))",
};

/// Theorem 2's last substitution, with $P=n^{\alpha-1}$ (so $T=n^\alpha\epsilon^2=nP\epsilon^2$)
/// and $\beta_0=\eta_0^2n/T$: $T\beta_0=\eta_0^2n$ (the squares of $\sqrt{T\beta_0}$ and
/// $\eta_0\sqrt n$, both $\ge0$) and $\beta_0=\eta_0^2/(\epsilon^2P)$.
fn thm2_substitution<R: Alg>(x: &[R], m: Option<&str>) -> (R, R) {
    let (eta0, n, p, eps, z) = (x[0], x[1], x[2], x[3], x[4]);
    let t = n * p * eps.sqr();
    let beta0 = eta0.sqr() * n / t;
    let e = if pick(m, &EPS_NOT_SQUARED) {
        eps
    } else {
        eps.sqr()
    };
    both(
        z,
        (t * beta0, eta0.sqr() * n),
        (beta0, eta0.sqr() / (e * p)),
    )
}

pub(super) static THM2_SUBSTITUTION: IdentityClaim = IdentityClaim {
    info: info(
        "multipass.thm2.step.substitution",
        "Theorem 2's proof: 'This bound implies Theorem 2' [proof step, substitution identity]",
        "sqrt(T beta0) = eta0 sqrt(n) and beta0 = eta0^2/(eps^2 n^(alpha-1)) at T = n^alpha eps^2, beta0 = eta0^2 n/T (with P = n^(alpha-1)), exactly",
        &[EPS_NOT_SQUARED],
    ),
    identity: Identity {
        vars: &["eta0", "n", "P", "eps", "z"],
        exact: thm2_substitution::<Frac>,
        degree: thm2_substitution::<Deg>,
    },
    cases: || {
        vec![
            params! { "eta0" => 0.5, "n" => 1000.0, "P" => 8.0, "eps" => 0.5, "z" => 1.0 },
            params! { "eta0" => 2.0, "n" => 64.0, "P" => 1.0, "eps" => 3.0, "z" => 0.25 },
        ]
    },
};

// ---------------------------------------------------------------------------------------------

const GRADIENT_OVER_K_PLUS_ONE: Mutant = Mutant {
    name: "gradient-over-k-plus-one",
    description: "measured side: G^2 eta/(2(k+1)) for G^2 eta/(2(k+2)) in the recursion",
};

/// Corollary 3's recursion, by certificates. With $S=S_k$, $S_1=S_{k+1}$,
/// $f=f(p_{T-k-1})=(k+2)S_{k+1}-(k+1)S_k$ (the definition of $S_k$ as an average) and the
/// slack of the summed Lemmas at $p=p_{T-k-1}$,
/// $A=\frac W{2\eta}+(k+1)\frac{G^2\eta}2-(k+1)S_k+(k+1)f\ge0$:
/// the display's inequality has slack $A/(k+1)$, and the recursion
/// $S_k\le S_{k+1}+\frac W{2\eta(k+1)(k+2)}+\frac{G^2\eta}{2(k+2)}$ has slack
/// $A/((k+1)(k+2))$, both with multipliers $>0$ for $k\ge0$. The recursion is written times
/// $2\eta(k+1)(k+2)$ and the display times $2\eta(k+1)$ (nonzero factors; this keeps the exact
/// integers small).
fn cor3_recursion<R: Alg>(x: &[R], m: Option<&str>) -> (R, R) {
    let (k, s, s1, w, g, eta, z) = (x[0], x[1], x[2], x[3], x[4], x[5], x[6]);
    let (one, two) = (R::int(1), R::int(2));
    let (k1, k2) = (k + one, k + two);
    let f = k2 * s1 - k1 * s;
    // 2 eta A
    let a2 = w + k1 * g.sqr() * eta.sqr() - two * eta * k1 * s + two * eta * k1 * f;
    // The display, times 2 eta (k+1): [(k+2) S1 - S + W/(2 eta (k+1)) + G^2 eta/2] - [(k+2) S1 - f].
    let display = two * eta * k1 * (f - s) + w + k1 * g.sqr() * eta.sqr();
    // The recursion's slack, times 2 eta (k+1)(k+2).
    let over = if pick(m, &GRADIENT_OVER_K_PLUS_ONE) {
        k2
    } else {
        k1
    };
    let recursion = two * eta * k1 * k2 * (s1 - s) + w + g.sqr() * eta.sqr() * over;
    both(z, (display, a2), (recursion, a2))
}

pub(super) static COR3_RECURSION: IdentityClaim = IdentityClaim {
    info: info(
        "last_iterate.cor3.step.recursion",
        "Corollary 3's proof: (k+1) S_k = (k+2) S_{k+1} - f(p_{T-k-1}) <= ... hence S_k <= S_{k+1} + E[W2^2/(2 eta (k+1)(k+2))] + G^2 eta/(2(k+2)) [proof step, certificate identities]",
        "with f = (k+2) S_{k+1} - (k+1) S_k and the Lemmas' slack A >= 0 at p = p_{T-k-1}: the display's slack is A/(k+1) and the recursion's A/((k+1)(k+2)), exactly",
        &[GRADIENT_OVER_K_PLUS_ONE],
    ),
    identity: Identity {
        vars: &["k", "S", "S1", "W", "G", "eta", "z"],
        exact: cor3_recursion::<Frac>,
        degree: cor3_recursion::<Deg>,
    },
    cases: || {
        vec![
            params! { "k" => 0.0, "S" => 1.5, "S1" => 1.25, "W" => 0.5, "G" => 1.0, "eta" => 0.25, "z" => 1.0 },
            params! { "k" => 7.0, "S" => 0.5, "S1" => 2.0, "W" => 3.0, "G" => 2.0, "eta" => 0.125, "z" => 0.5 },
        ]
    },
};

// ---------------------------------------------------------------------------------------------

const WITHOUT_HALF: Mutant = Mutant {
    name: "without-half",
    description: "measured side: (eps + log(1/delta)) eta0^2/(eps^2 T), the 2 dropped",
};

/// Theorem 1: the statement's $\beta_0=\frac{(\epsilon+L)\eta_0^2}{2\epsilon^2T}$ is the
/// proof's $\frac{\alpha\eta_0^2}{2\epsilon T}$ at $\alpha=1+L/\epsilon$, $L=\ln(1/\delta)$.
fn thm1_beta0<R: Alg>(x: &[R], m: Option<&str>) -> (R, R) {
    let (eps, l, eta0, t) = (x[0], x[1], x[2], x[3]);
    let two = if pick(m, &WITHOUT_HALF) {
        R::int(1)
    } else {
        R::int(2)
    };
    let alpha = R::int(1) + l / eps;
    (
        (eps + l) * eta0.sqr() / (two * eps.sqr() * t),
        alpha * eta0.sqr() / (R::int(2) * eps * t),
    )
}

pub(super) static THM1_BETA0: IdentityClaim = IdentityClaim {
    info: info(
        "last_iterate.thm1.step.beta0",
        "Theorem 1: the statement's beta0 and the proof's [proof step, identity]",
        "(eps + L) eta0^2/(2 eps^2 T) = alpha eta0^2/(2 eps T) at alpha = 1 + L/eps (L = log(1/delta)), exactly",
        &[WITHOUT_HALF],
    ),
    identity: Identity {
        vars: &["epsilon", "L", "eta0", "T"],
        exact: thm1_beta0::<Frac>,
        degree: thm1_beta0::<Deg>,
    },
    cases: || {
        vec![
            params! { "epsilon" => 0.5, "L" => 11.5, "eta0" => 1.0, "T" => 1000.0 },
            params! { "epsilon" => 4.0, "L" => 0.75, "eta0" => 0.25, "T" => 2.0 },
        ]
    },
};

const ALPHA_NOT_SHIFTED: Mutant = Mutant {
    name: "alpha-not-shifted",
    description: "measured side: eps + log(1/delta)/alpha for eps + log(1/delta)/(alpha - 1)",
};

/// Theorem 1: Lemma 1's $\epsilon+\frac L{\alpha-1}=2\epsilon$ at $\alpha=1+L/\epsilon$.
fn thm1_alpha<R: Alg>(x: &[R], m: Option<&str>) -> (R, R) {
    let (eps, l) = (x[0], x[1]);
    let alpha = R::int(1) + l / eps;
    let shift = if pick(m, &ALPHA_NOT_SHIFTED) {
        R::int(0)
    } else {
        R::int(1)
    };
    (eps + l / (alpha - shift), R::int(2) * eps)
}

pub(super) static THM1_ALPHA: IdentityClaim = IdentityClaim {
    info: info(
        "last_iterate.thm1.step.alpha",
        "Theorem 1's proof: 'Setting alpha = 1 + log(1/delta)/eps, we obtain the desired result' [proof step, identity]",
        "eps + L/(alpha - 1) = 2 eps at alpha = 1 + L/eps (L = log(1/delta) > 0), exactly",
        &[ALPHA_NOT_SHIFTED],
    ),
    identity: Identity {
        vars: &["epsilon", "L"],
        exact: thm1_alpha::<Frac>,
        degree: thm1_alpha::<Deg>,
    },
    cases: || {
        vec![
            params! { "epsilon" => 0.5, "L" => 11.5 },
            params! { "epsilon" => 4.0, "L" => 0.75 },
        ]
    },
};

// ---------------------------------------------------------------------------------------------

const VARIANCE_OVER_ETA: Mutant = Mutant {
    name: "variance-over-eta",
    description: "measured side: eta sigma_t^2 for eta^2 sigma_t^2",
};

/// Proposition 4's substitution into Theorem 3: $\eta^2\sigma_t^2=\lambda_t\eta(2-\lambda_t\eta)\beta_0$
/// at $\sigma_t^2=\eta\lambda_t\beta_0(2-\eta\lambda_t)/\eta^2$, Algorithm 1's noise variance.
fn prop4_sigma<R: Alg>(x: &[R], m: Option<&str>) -> (R, R) {
    let (eta, lambda, beta0) = (x[0], x[1], x[2]);
    let sigma2 = eta * lambda * beta0 * (R::int(2) - eta * lambda) / eta.sqr();
    let scale = if pick(m, &VARIANCE_OVER_ETA) {
        eta
    } else {
        eta.sqr()
    };
    (
        scale * sigma2,
        lambda * eta * (R::int(2) - lambda * eta) * beta0,
    )
}

pub(super) static PROP4_SIGMA: IdentityClaim = IdentityClaim {
    info: info(
        "last_iterate.prop4.step.sigma",
        "Proposition 4's proof: Theorem 3 with step eta and sigma_t^2 = eta lambda_t beta0 (2 - eta lambda_t)/eta^2 [proof step, identity]",
        "eta^2 sigma_t^2 = lambda_t eta (2 - lambda_t eta) beta0, Algorithm 1's noise variance, exactly",
        &[VARIANCE_OVER_ETA],
    ),
    identity: Identity {
        vars: &["eta", "lambda", "beta0"],
        exact: prop4_sigma::<Frac>,
        degree: prop4_sigma::<Deg>,
    },
    cases: || {
        vec![
            params! { "eta" => 0.25, "lambda" => 2.0, "beta0" => 0.5 },
            params! { "eta" => 0.125, "lambda" => 0.75, "beta0" => 3.0 },
        ]
    },
};

// ---------------------------------------------------------------------------------------------

const EXPONENT_WITHOUT_HALF: Mutant = Mutant {
    name: "exponent-without-half",
    description: "bound side: Q_T with lambda~ ||w||^2 for lambda~ ||w||^2/2",
};

/// Lemma 4's second equality: $q$'s density $(2\pi\beta_0)^{-d/2}e^{-\Vert w\Vert^2/(2\beta_0)}$
/// times $e^{-T\ l(w,S_n)/(\tilde\lambda\beta_0)}$ is $(2\pi\beta_0)^{-d/2}e^{-Q_T(w)/(\tilde\lambda\beta_0)}$ with
/// $Q_T=T\ l+\tilde\lambda\Vert w\Vert^2/2$: the exponents add,
/// $\frac{T\ l}{\tilde\lambda\beta_0}+\frac{r_2}{2\beta_0}=\frac{T\ l+\tilde\lambda r_2/2}{\tilde\lambda\beta_0}$
/// ($r_2=\Vert w\Vert^2$; $E\sum_tl(w,z_t)=T\ l(w,S_n)$ for $z_t$ uniform on $S_n$).
fn lemma4_exponent<R: Alg>(x: &[R], m: Option<&str>) -> (R, R) {
    let (t, l, lambda, beta0, r2) = (x[0], x[1], x[2], x[3], x[4]);
    let half = if pick(m, &EXPONENT_WITHOUT_HALF) {
        R::int(1)
    } else {
        R::ratio(1, 2)
    };
    (
        t * l / (lambda * beta0) + r2 / (R::int(2) * beta0),
        (t * l + lambda * r2 * half) / (lambda * beta0),
    )
}

pub(super) static LEMMA4_EXPONENT: IdentityClaim = IdentityClaim {
    info: info(
        "multipass.lemma4.step.exponent",
        "Lemma 4's proof, second equality: q's density and E sum_t l(w, z_t) = T l(w, S_n) give exp(-Q_T(w)/(lambda~ beta0)) [proof step, identity]",
        "T l/(lambda~ beta0) + ||w||^2/(2 beta0) = (T l + lambda~ ||w||^2/2)/(lambda~ beta0), exactly",
        &[EXPONENT_WITHOUT_HALF],
    ),
    identity: Identity {
        vars: &["T", "l", "lambda_sum", "beta0", "r2"],
        exact: lemma4_exponent::<Frac>,
        degree: lemma4_exponent::<Deg>,
    },
    cases: || {
        vec![
            params! { "T" => 100.0, "l" => 0.75, "lambda_sum" => 2.5, "beta0" => 0.125, "r2" => 3.0 },
        ]
    },
};

// ---------------------------------------------------------------------------------------------

const LAMBDA_SHIFTED: Mutant = Mutant {
    name: "lambda-shifted",
    description: "lambda_t = 1/((t+1) eta) for 1/(t eta)",
};

/// Corollary 3's sum of Lemmas 2 and 3 over $t=T-k,\dots,T$, three identities at once
/// (coefficients of $1,z,z^2$): (i) $1-\lambda_t\eta=\frac{t-1}t$ at $\lambda_t=\frac1{t\eta}$, so
/// $0\le1-\lambda_t\eta\le1$ for $t\ge1$; (ii) the certificate of dropping that factor in each
/// summand, $[W_{t-1}^2-W_t^2+\eta^2G^2]-[(1-\lambda_t\eta)W_{t-1}^2-W_t^2+\eta^2G^2]=W_{t-1}^2/t\ge0$
/// (with $W_0,W_T$ read as $W_{t-1},W_t$); after telescoping,
/// $2\eta F\le W_0^2-W_T^2+(k+1)\eta^2G^2$ ($F=\sum_tf(p_t)-(k+1)f(p)$, $W_0=W_2(\tilde p_{T-k-1},p)$),
/// (iii) the displayed bound's slack is that one's over $2\eta$ plus $W_T^2/(2\eta)\ge0$.
fn cor3_sum<R: Alg>(x: &[R], m: Option<&str>) -> (R, R) {
    let (t, eta, g, w0, wt, f, k, z) = (x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7]);
    let one = R::int(1);
    let shift = if pick(m, &LAMBDA_SHIFTED) {
        one
    } else {
        R::int(0)
    };
    let lambda = one / ((t + shift) * eta);
    let factor = (one - lambda * eta, (t - one) / t);
    let drop = (
        (w0.sqr() - wt.sqr() + eta.sqr() * g.sqr())
            - ((one - lambda * eta) * w0.sqr() - wt.sqr() + eta.sqr() * g.sqr()),
        w0.sqr() / t,
    );
    let two_eta = R::int(2) * eta;
    let summed = w0.sqr() - wt.sqr() + (k + one) * eta.sqr() * g.sqr() - two_eta * f;
    let display = (
        w0.sqr() / two_eta + (k + one) * g.sqr() * eta / R::int(2) - f,
        summed / two_eta + wt.sqr() / two_eta,
    );
    let (l, r) = both(z, factor, drop);
    (l + z.sqr() * display.0, r + z.sqr() * display.1)
}

pub(super) static COR3_SUM: IdentityClaim = IdentityClaim {
    info: info(
        "last_iterate.cor3.step.sum",
        "Corollary 3's proof: 'Lemmas 2 and 3 imply' the sum over t = T-k..T [proof step, identity and certificates]",
        "1 - lambda_t eta = (t-1)/t at lambda_t = 1/(t eta); dropping that factor costs W_{t-1}^2/t >= 0; the displayed bound's slack is the telescoped sum's over 2 eta plus W_T^2/(2 eta), exactly",
        &[LAMBDA_SHIFTED],
    ),
    identity: Identity {
        vars: &["t", "eta", "G", "W0", "WT", "F", "k", "z"],
        exact: cor3_sum::<Frac>,
        degree: cor3_sum::<Deg>,
    },
    cases: || {
        vec![
            params! { "t" => 5.0, "eta" => 0.25, "G" => 2.0, "W0" => 1.5, "WT" => 0.5, "F" => 0.75, "k" => 3.0, "z" => 1.0 },
            params! { "t" => 1.0, "eta" => 0.125, "G" => 1.0, "W0" => 3.0, "WT" => 2.0, "F" => -1.0, "k" => 0.0, "z" => 2.0 },
        ]
    },
};
