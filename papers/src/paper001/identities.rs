//! Proof steps of seed 001 that are pure algebra, proved exactly by
//! [`dpclaims_core::identity`] (identities of rational functions: both $\le$ and $\ge$, no
//! tolerance; two identities at once in a fresh variable $z$, [`both`]). Each mutant perturbs one
//! coefficient and must come out refuted.

use dpclaims_core::claim::{Claim, ClaimInfo, Mutant};
use dpclaims_core::identity::{Alg, Deg, Frac, Identity, both};
use dpclaims_core::params;
use dpclaims_core::step::IdentityClaim;
use dpclaims_core::step::exact_info;

const PAPER: &str = "001_34c1b2bc7e1d7728.txt — Asoodeh, Diaz (2023), arXiv 2305.09903";

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

const OVER_N_MINUS_ONE: Mutant = Mutant {
    name: "over-n-minus-one",
    description: "bound side: b/(n-1) for b/n",
};

/// $\binom{n-1}{b-1}/\binom nb=b/n$, written with $F=(n-1)!$, $B=(b-1)!$, $R=(n-b)!$ (so that
/// $n!=nF$ and $b!=bB$): $\binom{n-1}{b-1}=\frac F{BR}$, $\binom nb=\frac{nF}{bBR}$.
fn batch_weight<R: Alg>(x: &[R], m: Option<&str>) -> (R, R) {
    let (n, b, f, bb, r) = (x[0], x[1], x[2], x[3], x[4]);
    let with = f / (bb * r);
    let all = n * f / (b * bb * r);
    let over = if pick(m, &OVER_N_MINUS_ONE) {
        n - R::int(1)
    } else {
        n
    };
    (with / all, b / over)
}

static BATCH_WEIGHT: IdentityClaim = IdentityClaim {
    info: info(
        "contraction.cdpi.step.batch_weight",
        "Proposition 3's proof: batches containing the differing index have total weight q = b/n [proof step, identity]",
        "C(n-1, b-1)/C(n, b) = b/n, with (n-1)!, (b-1)!, (n-b)! as variables and n! = n (n-1)!, b! = b (b-1)!, exactly",
        &[OVER_N_MINUS_ONE],
    ),
    identity: Identity {
        vars: &["n", "b", "F", "B", "R"],
        exact: batch_weight::<Frac>,
        degree: batch_weight::<Deg>,
    },
    cases: || {
        // n = 6, b = 2: F = 5! = 120, B = 1! = 1, R = 4! = 24; n = 10, b = 3: 9!, 2!, 7!.
        vec![
            params! { "n" => 6.0, "b" => 2.0, "F" => 120.0, "B" => 1.0, "R" => 24.0 },
            params! { "n" => 10.0, "b" => 3.0, "F" => 362_880.0, "B" => 2.0, "R" => 5040.0 },
        ]
    },
};

// ---------------------------------------------------------------------------------------------

const OVER_ONE_MINUS_THETA: Mutant = Mutant {
    name: "over-one-minus-theta",
    description: "the closed form with 1 - theta for 1 - (1-q) theta in its denominator",
};

/// Eq. (5) unrolled: with $r=(1-q)\theta$ and $P=r^T$, the closed form
/// $\delta_T=q\theta\frac{1-P}{1-r}$ satisfies $\delta_0=0$ ($P=1$) and the recursion of the
/// coupled DPI, $\delta_{T+1}=r \delta_T+q\theta$ (at $r^{T+1}=rP$): by induction it is
/// $q\theta\sum_{k<T}r^k$.
fn unroll<R: Alg>(x: &[R], m: Option<&str>) -> (R, R) {
    let (q, theta, p, z) = (x[0], x[1], x[2], x[3]);
    let one = R::int(1);
    let r = (one - q) * theta;
    let den = if pick(m, &OVER_ONE_MINUS_THETA) {
        one - theta
    } else {
        one - r
    };
    let closed = |pp: R| q * theta * (one - pp) / den;
    both(
        z,
        (closed(one), R::int(0)),
        (r * closed(p) + q * theta, closed(r * p)),
    )
}

static UNROLL: IdentityClaim = IdentityClaim {
    info: info(
        "contraction.main.step.unroll",
        "The main theorem's eq. (5): delta_T(eps) = q theta sum_{k<T} ((1-q) theta)^k = q theta (1 - ((1-q) theta)^T)/(1 - (1-q) theta) [proof step, identity; induction on T]",
        "the closed form is 0 at T = 0 and satisfies delta_{T+1} = (1-q) theta delta_T + q theta (with P = ((1-q) theta)^T), exactly",
        &[OVER_ONE_MINUS_THETA],
    ),
    identity: Identity {
        vars: &["q", "theta", "P", "z"],
        exact: unroll::<Frac>,
        degree: unroll::<Deg>,
    },
    cases: || {
        vec![
            params! { "q" => 0.25, "theta" => 0.5, "P" => 0.375, "z" => 1.0 },
            params! { "q" => 0.125, "theta" => 0.75, "P" => 0.5, "z" => 3.0 },
        ]
    },
};

// ---------------------------------------------------------------------------------------------

const WITHOUT_Q: Mutant = Mutant {
    name: "without-q",
    description: "bound side: (1 - theta)/(1 - theta) for (1 - theta)/(1 - (1-q) theta)",
};

/// 'The upper bound in (5) is always less than 1', by its certificate: with
/// $\delta_\infty=\frac{q\theta}{1-(1-q)\theta}$, $1-\delta_\infty=\frac{1-\theta}{1-(1-q)\theta}$,
/// whose denominator is $>0$ for $\theta<1$, $q\in(0,1]$: so $\delta_\infty<1$ exactly when
/// $\theta<1$ ($\theta_\varepsilon(r)<1$ for finite $r$ is the Gaussian kernel's, not this
/// claim's).
fn below_one<R: Alg>(x: &[R], m: Option<&str>) -> (R, R) {
    let (q, theta) = (x[0], x[1]);
    let one = R::int(1);
    let delta = q * theta / (one - (one - q) * theta);
    let den = if pick(m, &WITHOUT_Q) {
        one - theta
    } else {
        one - (one - q) * theta
    };
    (one - delta, (one - theta) / den)
}

static BELOW_ONE: IdentityClaim = IdentityClaim {
    info: info(
        "contraction.main.step.below_one",
        "The main theorem: 'the upper bound in (5) is always less than 1' [proof step, certificate identity]",
        "1 - q theta/(1 - (1-q) theta) = (1 - theta)/(1 - (1-q) theta), exactly: delta_inf < 1 iff theta < 1 (for q in (0, 1])",
        &[WITHOUT_Q],
    ),
    identity: Identity {
        vars: &["q", "theta"],
        exact: below_one::<Frac>,
        degree: below_one::<Deg>,
    },
    cases: || {
        vec![
            params! { "q" => 0.25, "theta" => 0.5 },
            params! { "q" => 0.015625, "theta" => 0.9375 },
        ]
    },
};

// ---------------------------------------------------------------------------------------------

const Q_FOR_MIXTURE: Mutant = Mutant {
    name: "q-for-mixture",
    description: "x_inf = delta/(q + delta) for delta/(q + (1-q) delta)",
};

/// Appendix A: $x_\infty=\frac\delta{q+(1-q)\delta}$ solves $\frac{qx}{1-(1-q)x}=\delta$.
fn x_inf<R: Alg>(x: &[R], m: Option<&str>) -> (R, R) {
    let (q, delta) = (x[0], x[1]);
    let one = R::int(1);
    let w = if pick(m, &Q_FOR_MIXTURE) {
        one
    } else {
        one - q
    };
    let xi = delta / (q + w * delta);
    (q * xi / (one - (one - q) * xi), delta)
}

static X_INF: IdentityClaim = IdentityClaim {
    info: info(
        "contraction.appA.step.x_inf",
        "Appendix A (reconstructed): x_inf = delta/(q + (1-q) delta) [proof step, identity]",
        "q x/(1 - (1-q) x) = delta at x = delta/(q + (1-q) delta), exactly",
        &[Q_FOR_MIXTURE],
    ),
    identity: Identity {
        vars: &["q", "delta"],
        exact: x_inf::<Frac>,
        degree: x_inf::<Deg>,
    },
    cases: || {
        vec![
            params! { "q" => 0.25, "delta" => 0.0009765625 },
            params! { "q" => 0.5, "delta" => 0.125 },
        ]
    },
};

// ---------------------------------------------------------------------------------------------

const EXP_ON_THE_MIDDLE: Mutant = Mutant {
    name: "exp-on-the-middle",
    description: "bound side: e^eps on E_eps(P || P') instead of on E_0(P' || P~')",
};

/// Theorem 3: [LCV16] twice. At $(\varepsilon_1,\varepsilon_2)=(0,\varepsilon)$ (so
/// $e^{\varepsilon_1}=1$) it gives $E_\varepsilon(\tilde P\Vert\tilde P')\le E_0(\tilde P\Vert P)+E_\varepsilon(P\Vert\tilde P')$
/// (slack $s_1$), at $(\varepsilon,0)$ $E_\varepsilon(P\Vert\tilde P')\le E_\varepsilon(P\Vert P')+e^\varepsilon E_0(P'\Vert\tilde P')$
/// (slack $s_2$); the combined inequality's slack is $s_1+s_2$ (multipliers $1,1$). Variables:
/// $a=E_\varepsilon(\tilde P\Vert\tilde P')$, $b=E_0(\tilde P\Vert P)$, $c=E_\varepsilon(P\Vert\tilde P')$,
/// $d=E_\varepsilon(P\Vert P')$, $e=E_0(P'\Vert\tilde P')$, $X=e^\varepsilon$.
fn twice<R: Alg>(x: &[R], m: Option<&str>) -> (R, R) {
    let (a, b, c, d, e, big) = (x[0], x[1], x[2], x[3], x[4], x[5]);
    let s1 = b + R::int(1) * c - a;
    let s2 = d + big * e - c;
    let combined = if pick(m, &EXP_ON_THE_MIDDLE) {
        b + big * d + e - a
    } else {
        b + d + big * e - a
    };
    (combined, s1 + s2)
}

static TWICE: IdentityClaim = IdentityClaim {
    info: info(
        "contraction.thm3.step.twice",
        "Theorem 3's proof: [LCV16] twice (eps1 = 0, then eps2 = 0) [proof step, certificate identity]",
        "(E_0(P~||P) + E_eps(P||P') + e^eps E_0(P'||P~') - E_eps(P~||P~')) = s1 + s2, the slacks of the two applications, exactly",
        &[EXP_ON_THE_MIDDLE],
    ),
    identity: Identity {
        vars: &["a", "b", "c", "d", "e", "exp_eps"],
        exact: twice::<Frac>,
        degree: twice::<Deg>,
    },
    cases: || {
        vec![
            params! { "a" => 0.25, "b" => 0.0625, "c" => 0.125, "d" => 0.1875, "e" => 0.03125, "exp_eps" => 2.5 },
        ]
    },
};

// ---------------------------------------------------------------------------------------------

/// A value and its derivative along one variable (forward differentiation over [`Alg`]), so that
/// a derivative is computed from the printed expression by the sum, product and quotient rules,
/// not written by hand.
#[derive(Debug, Clone, Copy)]
struct Dual<R> {
    v: R,
    d: R,
}

impl<R: Alg> Dual<R> {
    fn cst(v: R) -> Self {
        Dual { v, d: R::int(0) }
    }
    fn var(v: R) -> Self {
        Dual { v, d: R::int(1) }
    }
}
impl<R: Alg> std::ops::Add for Dual<R> {
    type Output = Self;
    fn add(self, o: Self) -> Self {
        Dual {
            v: self.v + o.v,
            d: self.d + o.d,
        }
    }
}
impl<R: Alg> std::ops::Sub for Dual<R> {
    type Output = Self;
    fn sub(self, o: Self) -> Self {
        Dual {
            v: self.v - o.v,
            d: self.d - o.d,
        }
    }
}
impl<R: Alg> std::ops::Mul for Dual<R> {
    type Output = Self;
    fn mul(self, o: Self) -> Self {
        Dual {
            v: self.v * o.v,
            d: self.d * o.v + self.v * o.d,
        }
    }
}
impl<R: Alg> std::ops::Div for Dual<R> {
    type Output = Self;
    fn div(self, o: Self) -> Self {
        Dual {
            v: self.v / o.v,
            d: (self.d * o.v - self.v * o.d) / (o.v * o.v),
        }
    }
}
impl<R: Alg> std::ops::Neg for Dual<R> {
    type Output = Self;
    fn neg(self) -> Self {
        Dual {
            v: -self.v,
            d: -self.d,
        }
    }
}
impl<R: Alg> Alg for Dual<R> {
    fn ratio(n: i64, d: i64) -> Self {
        Dual::cst(R::ratio(n, d))
    }
}

const EXP_MINUS_EPS: Mutant = Mutant {
    name: "exp-minus-eps",
    description: "theta_eps(r) = Phi(a) - e^{-eps} Phi(b): the factor e^{-eps} for e^eps",
};

const SECOND_SIGN: Mutant = Mutant {
    name: "second-argument-plus-eps-over-r",
    description: "theta_eps(r) = Phi(a) - e^eps Phi(-r/2 + eps/r): the sign of eps/r in the second argument flipped",
};

/// The Gaussian kernel's $\theta_\varepsilon(r)=\Phi(a)-e^\varepsilon\Phi(b)$, $a=\frac r2-\frac\varepsilon r$,
/// $b=-\frac r2-\frac\varepsilon r$, increases in $r$. By the chain rule
/// $\partial_r\theta=\varphi(a)a'-e^\varepsilon\varphi(b)b'=\varphi(a)\thinspace(a'-Eb')$ with
/// $E=e^\varepsilon\varphi(b)/\varphi(a)=\exp(\varepsilon+\frac{a^2}2-\frac{b^2}2)$; the certificate is
/// the two identities $\varepsilon+\frac{a^2}2-\frac{b^2}2=0$ (so $E=1$) and $a'-b'=1$, the
/// derivatives $a'=\partial_ra$, $b'=\partial_rb$ computed from $a$ and $b$ by forward
/// differentiation ([`Dual`]): hence $\partial_r\theta_\varepsilon(r)=\varphi(\frac r2-\frac\varepsilon r)>0$
/// for $r>0$, and $\theta_\varepsilon(r_1)\le\theta_\varepsilon(r_2)$ for $0<r_1\le r_2$ (mean
/// value theorem). The two identities at once in $z$ ([`both`]).
fn gauss_monotone<R: Alg>(x: &[R], m: Option<&str>) -> (R, R) {
    let (eps, r, z) = (x[0], x[1], x[2]);
    let (e, rr) = (Dual::cst(eps), Dual::var(r));
    let half = Dual::ratio(1, 2);
    let a = half * rr - e / rr;
    let b = if pick(m, &SECOND_SIGN) {
        -(half * rr) + e / rr
    } else {
        -(half * rr) - e / rr
    };
    // theta = Phi(a) - e^k Phi(b): E = exp(k + a^2/2 - b^2/2).
    let k = if pick(m, &EXP_MINUS_EPS) { -eps } else { eps };
    let two = R::int(2);
    both(
        z,
        (k + a.v.sqr() / two - b.v.sqr() / two, R::int(0)),
        (a.d - b.d, R::int(1)),
    )
}

static GAUSS_MONOTONE: IdentityClaim = IdentityClaim {
    info: info(
        "contraction.gauss_kernel.step.monotone",
        "Sec. II proposition (reconstructed): 'theta_eps(r) increases in r, so the supremum over W is attained at distance dia(W)' [proof step, certificate identity of the derivative]",
        "theta_eps(r) = Phi(a) - e^eps Phi(b), a = r/2 - eps/r, b = -r/2 - eps/r: d theta/dr = phi(a) a' - e^eps phi(b) b' = phi(a) (a' - E b'), E = exp(eps + a^2/2 - b^2/2); exactly eps + a^2/2 - b^2/2 = 0 and a' - b' = 1 (a', b' by forward differentiation), so d theta/dr = phi(r/2 - eps/r) > 0",
        &[EXP_MINUS_EPS, SECOND_SIGN],
    ),
    identity: Identity {
        vars: &["epsilon", "r", "z"],
        exact: gauss_monotone::<Frac>,
        degree: gauss_monotone::<Deg>,
    },
    cases: || {
        vec![
            params! { "epsilon" => 0.5, "r" => 2.0, "z" => 1.0 },
            params! { "epsilon" => 3.0, "r" => 0.25, "z" => 3.0 },
        ]
    },
};

// ---------------------------------------------------------------------------------------------

const PRODUCT_BEFORE: Mutant = Mutant {
    name: "product-over-earlier-steps",
    description: "the sum with prod_{s<t} (1-q) theta_s (the steps before t) in place of prod_{s>t}",
};

/// The horizon of [`thm3_unroll`].
const THM3_T: usize = 5;

/// Theorem 3's iteration with time-varying $\theta_t=\theta_\varepsilon(\rho_t)$: from
/// $e_0=0$, the coupled DPI $e_t=(1-q)\theta_te_{t-1}+q\theta_t$ for $t=1..T$ gives
/// $e_T=\sum_{t\le T}q\theta_t\prod_{t<s\le T}(1-q)\theta_s$, at $T=5$ in the six variables
/// $q,\theta_1,\dots,\theta_5$ (the recursion iterated on the left, the printed sum on the right).
fn thm3_unroll<R: Alg>(x: &[R], m: Option<&str>) -> (R, R) {
    let (q, theta) = (x[0], &x[1..=THM3_T]);
    let one = R::int(1);
    let mut e = R::int(0);
    for &t in theta {
        e = (one - q) * t * e + q * t;
    }
    let mut sum = R::int(0);
    for t in 0..THM3_T {
        let later = if pick(m, &PRODUCT_BEFORE) {
            0..t
        } else {
            t + 1..THM3_T
        };
        let mut term = q * theta[t];
        for s in later {
            term = term * (one - q) * theta[s];
        }
        sum = sum + term;
    }
    (e, sum)
}

static THM3_UNROLL: IdentityClaim = IdentityClaim {
    info: info(
        "contraction.thm3.step.unroll",
        "Theorem 3's proof: 'Iterate from E_eps(delta_0 || delta_0) = 0': E_eps(P || P') <= sum_t q theta_eps(rho_t) prod_{s>t} (1-q) theta_eps(rho_s), the recursion of the coupled DPI with time-varying theta [proof step, identity]",
        "e_0 = 0, e_t = (1-q) theta_t e_{t-1} + q theta_t (t = 1..5) equals sum_{t<=5} q theta_t prod_{t<s<=5} (1-q) theta_s, exactly, in q, theta_1, ..., theta_5",
        &[PRODUCT_BEFORE],
    ),
    identity: Identity {
        vars: &["q", "theta1", "theta2", "theta3", "theta4", "theta5"],
        exact: thm3_unroll::<Frac>,
        degree: thm3_unroll::<Deg>,
    },
    cases: || {
        vec![
            params! { "q" => 0.25, "theta1" => 0.5, "theta2" => 0.75, "theta3" => 0.125, "theta4" => 1.0, "theta5" => 0.375 },
            params! { "q" => 0.5, "theta1" => 0.75, "theta2" => 0.25, "theta3" => 0.5, "theta4" => 0.125, "theta5" => 1.0 },
        ]
    },
};

/// The identity steps of seed 001.
pub fn claims() -> Vec<&'static dyn Claim> {
    vec![
        &BATCH_WEIGHT,
        &UNROLL,
        &BELOW_ONE,
        &X_INF,
        &TWICE,
        &GAUSS_MONOTONE,
        &THM3_UNROLL,
    ]
}
