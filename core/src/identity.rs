//! Exact proofs of rational identities $a(x)=b(x)$ (an algebraic step, a substitution, or the
//! certificate of an implication), which an interval prover cannot give: an enclosure of
//! $a-b$ on a box of positive width always holds a neighbourhood of $0$ when $a\equiv b$, so
//! neither $a\le b$ nor $a\ge b$ is ever proved by enclosures alone.
//!
//! **Method (symbolic normalisation, evaluated exactly).** Both sides are written once against
//! [`Alg`] (the field operations $+,-,\times,\div$ and rational constants) and run on two
//! types:
//!
//! - [`Frac`] keeps a value as a *formal* pair $(n,d)$, never reduced, with
//!   $(n_1,d_1)\pm(n_2,d_2)=(n_1d_2\pm n_2d_1, d_1d_2)$, $(n_1,d_1)(n_2,d_2)=(n_1n_2, d_1d_2)$
//!   and $(n_1,d_1)/(n_2,d_2)=(n_1d_2, d_1n_2)$, in `i128` (an overflow is reported, never
//!   wrapped). So $a-b$ evaluates to $N(x)/D(x)$ where $N$ and $D$ are two *fixed* polynomials
//!   of the variables determined by the expression alone;
//! - [`Deg`] runs the same rules on per-variable degrees, giving $\deg_{x_i}N\le n_i$ and
//!   $\deg_{x_i}D\le m_i$.
//!
//! [`crate::prove::prove`] evaluates $N$ and $D$ at every point of the integer grid
//! $\lbrace0,\dots,n_i+m_i\rbrace^k$. A polynomial of degree at most $n_i$ in each variable
//! $x_i$ that vanishes on a product grid $S_1\times\dots\times S_k$ with $|S_i|>n_i$ is the zero
//! polynomial (induction on $k$: as a polynomial in $x_k$ with coefficients in the other
//! variables it has more roots than its degree at each point of $S_1\times\dots\times S_{k-1}$,
//! so each coefficient vanishes on that grid). Hence:
//!
//! - **proved** when $N=0$ at every grid point and $D\ne0$ at one: then $N\equiv0$ and
//!   $D\not\equiv0$, so $a-b=N/D$ is the zero rational function, and $a(x)=b(x)$ at every real
//!   $x$ where both sides are defined (there every divisor is nonzero, so $D(x)\ne0$). This
//!   gives both inequalities $a\le b$ and $a\ge b$ exactly, with no tolerance;
//! - **refuted** at a grid point where $N\ne0$ and $D\ne0$: the two sides differ there, so
//!   they are different rational functions. When $N\not\equiv0$ such a point exists on the
//!   grid, since $ND\not\equiv0$ has degree at most $n_i+m_i$ in $x_i$.
//!
//! Steps with $\sqrt{\cdot}$, $\ln$ or powers with real exponents are written in variables that
//! make them rational (e.g. $s=\sqrt{x}$ with $x=s^2$, $L=\ln(1/\delta)$ as a free variable,
//! $P=n^{\alpha-1}$): an identity of the rational functions in the new variables holds in
//! particular at the values they take, and each claim's rustdoc says its substitution.
//!
//! **At instances** ([`crate::step::IdentityClaim`]) both sides are evaluated exactly at a case (its values
//! must be dyadic rationals, e.g. `0.25` or `3`): one outcome for $a\le b$ and one for
//! $a\ge b$, respected both exactly when the two sides are equal there.

use std::ops::{Add, Div, Mul, Neg, Sub};

/// What an identity's sides are written against: a field with rational constants.
pub trait Alg:
    Copy
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    /// The rational constant $n/d$ ($d\ne0$).
    fn ratio(n: i64, d: i64) -> Self;
    /// The integer $n$.
    fn int(n: i64) -> Self {
        Self::ratio(n, 1)
    }
    /// $x^2$.
    fn sqr(self) -> Self {
        self * self
    }
}

/// A value as a formal, unreduced fraction $n/d$ of `i128`s; `ok` is false once an operation
/// overflowed (the value is then meaningless, and [`crate::prove::prove`] says so).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frac {
    /// Numerator.
    pub n: i128,
    /// Denominator (formal: may be $0$ where the expression is undefined).
    pub d: i128,
    /// No overflow so far.
    pub ok: bool,
}

impl Frac {
    fn of(n: Option<i128>, d: Option<i128>, ok: bool) -> Frac {
        match (n, d) {
            (Some(n), Some(d)) if ok => Frac { n, d, ok: true },
            _ => Frac {
                n: 0,
                d: 0,
                ok: false,
            },
        }
    }

    /// The exact value of a float that is a dyadic rational $m/2^k$ with $k\le62$ and
    /// $|m|<2^{63}$ (e.g. `0.25`, `3`); `None` otherwise.
    pub fn from_f64(x: f64) -> Option<Frac> {
        if !x.is_finite() {
            return None;
        }
        let mut d: i128 = 1;
        let mut y = x;
        for _ in 0..=62 {
            if y.fract() == 0.0 && y.abs() < 9.2e18 {
                return Some(Frac {
                    n: y as i128,
                    d,
                    ok: true,
                });
            }
            y *= 2.0;
            d *= 2;
        }
        None
    }

    /// The value as the nearest float (`NaN` when undefined or overflowed).
    pub fn to_f64(self) -> f64 {
        if !self.ok || self.d == 0 {
            f64::NAN
        } else {
            self.n as f64 / self.d as f64
        }
    }
}

impl Add for Frac {
    type Output = Frac;
    fn add(self, o: Frac) -> Frac {
        let n = self
            .n
            .checked_mul(o.d)
            .zip(o.n.checked_mul(self.d))
            .and_then(|(a, b)| a.checked_add(b));
        Frac::of(n, self.d.checked_mul(o.d), self.ok && o.ok)
    }
}
impl Sub for Frac {
    type Output = Frac;
    fn sub(self, o: Frac) -> Frac {
        self + (-o)
    }
}
impl Mul for Frac {
    type Output = Frac;
    fn mul(self, o: Frac) -> Frac {
        Frac::of(
            self.n.checked_mul(o.n),
            self.d.checked_mul(o.d),
            self.ok && o.ok,
        )
    }
}
impl Div for Frac {
    type Output = Frac;
    fn div(self, o: Frac) -> Frac {
        Frac::of(
            self.n.checked_mul(o.d),
            self.d.checked_mul(o.n),
            self.ok && o.ok,
        )
    }
}
impl Neg for Frac {
    type Output = Frac;
    fn neg(self) -> Frac {
        Frac::of(self.n.checked_neg(), Some(self.d), self.ok)
    }
}
impl Alg for Frac {
    fn ratio(n: i64, d: i64) -> Frac {
        Frac {
            n: n as i128,
            d: d as i128,
            ok: true,
        }
    }
}

/// Two identities $a_1=b_1$ and $a_2=b_2$ as one, $a_1+z a_2=b_1+z b_2$, in a fresh variable
/// $z$: an identity in $z$ holds exactly when both coefficients of $z$ agree.
pub fn both<R: Alg>(z: R, (a1, b1): (R, R), (a2, b2): (R, R)) -> (R, R) {
    (a1 + z * a2, b1 + z * b2)
}

/// At most this many variables in an identity.
pub const MAX_VARS: usize = 8;

/// Upper bounds on the per-variable degrees of the formal numerator and denominator that
/// [`Frac`] computes (the same rules on degrees).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deg {
    /// $\deg_{x_i}$ of the numerator, at most.
    pub num: [u32; MAX_VARS],
    /// $\deg_{x_i}$ of the denominator, at most.
    pub den: [u32; MAX_VARS],
}

impl Deg {
    /// The variable $x_i$: degree 1 in $x_i$ over a constant.
    pub fn var(i: usize) -> Deg {
        let mut num = [0; MAX_VARS];
        num[i] = 1;
        Deg {
            num,
            den: [0; MAX_VARS],
        }
    }
}

fn zip(a: [u32; MAX_VARS], b: [u32; MAX_VARS], f: impl Fn(u32, u32) -> u32) -> [u32; MAX_VARS] {
    std::array::from_fn(|i| f(a[i], b[i]))
}

impl Add for Deg {
    type Output = Deg;
    fn add(self, o: Deg) -> Deg {
        Deg {
            num: zip(
                zip(self.num, o.den, |a, b| a + b),
                zip(o.num, self.den, |a, b| a + b),
                u32::max,
            ),
            den: zip(self.den, o.den, |a, b| a + b),
        }
    }
}
impl Sub for Deg {
    type Output = Deg;
    fn sub(self, o: Deg) -> Deg {
        self + o
    }
}
impl Mul for Deg {
    type Output = Deg;
    fn mul(self, o: Deg) -> Deg {
        Deg {
            num: zip(self.num, o.num, |a, b| a + b),
            den: zip(self.den, o.den, |a, b| a + b),
        }
    }
}
impl Div for Deg {
    type Output = Deg;
    fn div(self, o: Deg) -> Deg {
        Deg {
            num: zip(self.num, o.den, |a, b| a + b),
            den: zip(self.den, o.num, |a, b| a + b),
        }
    }
}
impl Neg for Deg {
    type Output = Deg;
    fn neg(self) -> Deg {
        self
    }
}
impl Alg for Deg {
    fn ratio(_: i64, _: i64) -> Deg {
        Deg {
            num: [0; MAX_VARS],
            den: [0; MAX_VARS],
        }
    }
}

/// An identity $a(x)=b(x)$ in the variables `vars`, its two sides written once against
/// [`Alg`] and given twice. `mutant` is the run's mutant (it perturbs a side).
#[derive(Debug, Clone, Copy)]
pub struct Identity {
    /// The variables (the case parameters), at most [`MAX_VARS`].
    pub vars: &'static [&'static str],
    /// $(a,b)$ exactly, as formal fractions.
    pub exact: fn(&[Frac], Option<&str>) -> (Frac, Frac),
    /// $(a,b)$'s degree bounds.
    pub degree: fn(&[Deg], Option<&str>) -> (Deg, Deg),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claim::{ClaimInfo, Mutant, Statistic};
    use crate::prove::{Budget, ProofVerdict};
    use crate::step::{IdentityClaim, measure_point};

    fn prove(
        c: &IdentityClaim,
        id: &Identity,
        m: Option<&str>,
        b: Budget,
    ) -> crate::prove::ProofResult {
        crate::prove::prove_identity(c, id, m, b)
    }

    const OFF: Mutant = Mutant {
        name: "off",
        description: "the right side's coefficient 2 made 3",
    };

    /// $(x+y)^2/(x-y)\cdot(x-y)=x^2+c xy+y^2$ with $c=2$ (the mutant: $c=3$); a cubic in
    /// $z$ too: $(z-1)(z^2+z+1)=z^3-1$.
    fn sides<R: Alg>(x: &[R], m: Option<&str>) -> (R, R) {
        let (a, b, z) = (x[0], x[1], x[2]);
        let c = if m == Some("off") { 3 } else { 2 };
        let lhs = (a + b).sqr() / (a - b) * (a - b) + (z - R::int(1)) * (z.sqr() + z + R::int(1));
        let rhs = a.sqr() + R::int(c) * a * b + b.sqr() + z * z.sqr() - R::int(1);
        (lhs, rhs)
    }

    static ID: IdentityClaim = IdentityClaim {
        info: ClaimInfo {
            id: "test.identity",
            paper: "test",
            result: "test",
            statement: "(a+b)^2 = a^2 + 2ab + b^2",
            mutants: &[OFF],
            known_false: false,
            tautologies: &[],
            perturbation: None,
        },
        identity: Identity {
            vars: &["a", "b", "z"],
            exact: sides::<Frac>,
            degree: sides::<Deg>,
        },
        cases: || vec![crate::params! { "a" => 0.25, "b" => 3.0, "z" => 1.5 }],
    };

    const B: Budget = Budget {
        boxes: 1000,
        seconds: 10.0,
    };

    #[test]
    fn an_identity_is_proved_and_its_mutant_refuted() {
        let r = prove(&ID, &ID.identity, None, B);
        assert_eq!(r.verdict, ProofVerdict::Proved);
        let m = prove(&ID, &ID.identity, Some("off"), B);
        assert_eq!(m.verdict, ProofVerdict::Refuted);
        let c = m.counterexample.unwrap();
        assert!(c.measured != c.bound && c.command.contains("--mutant off"));
    }

    /// A difference that vanishes on a grid one point too small is not zero: the grid is
    /// sized by the degree, so $x(x-1)(x-2)$ is refuted (it is $6$ at $x=3$).
    #[test]
    fn the_grid_is_large_enough_for_the_degree() {
        fn cubic<R: Alg>(x: &[R], _: Option<&str>) -> (R, R) {
            let v = x[0];
            (v * (v - R::int(1)) * (v - R::int(2)), R::int(0))
        }
        let id = Identity {
            vars: &["x"],
            exact: cubic::<Frac>,
            degree: cubic::<Deg>,
        };
        let r = prove(&ID, &id, None, B);
        assert_eq!(r.verdict, ProofVerdict::Refuted);
        assert_eq!(r.counterexample.unwrap().params.f64("x").unwrap(), 3.0);
    }

    #[test]
    fn instances_are_exact_both_ways() {
        let case = crate::params! { "a" => 0.25, "b" => 3.0, "z" => 1.5 };
        let ok = measure_point(&ID.identity, &case, None).unwrap();
        let bad = measure_point(&ID.identity, &case, Some("off")).unwrap();
        for m in &ok {
            let Statistic::Computed { value, .. } = m.statistic else {
                panic!()
            };
            assert_eq!(value, m.bound);
        }
        // c = 3 adds a*b > 0 to the right side: a <= b holds, a >= b fails.
        let Statistic::Computed { value, .. } = bad[1].statistic else {
            panic!()
        };
        assert!(value < bad[1].bound);
        assert!(
            measure_point(
                &ID.identity,
                &crate::params! { "a" => 0.1, "b" => 3.0, "z" => 1.0 },
                None
            )
            .is_err()
        );
    }

    #[test]
    fn overflow_is_undecided_not_proved() {
        fn huge<R: Alg>(x: &[R], _: Option<&str>) -> (R, R) {
            let mut v = x[0] + R::int(1_000_000_007);
            for _ in 0..6 {
                v = v * v;
            }
            (v, v)
        }
        let id = Identity {
            vars: &["x"],
            exact: huge::<Frac>,
            degree: huge::<Deg>,
        };
        let r = prove(&ID, &id, None, B);
        assert_eq!(r.verdict, ProofVerdict::Undecided);
    }
}
