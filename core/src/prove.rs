//! Proofs on the whole box: a claim whose two sides are closed forms ([`ClosedForm`]) is checked
//! on every point of its declared box by branch and bound with interval arithmetic rounded
//! outward ([`crate::interval`]).
//!
//! [`prove`] keeps a list of boxes, largest share of the space first. For each box:
//!
//! 1. the hypotheses are evaluated on the box: a box wholly outside them is dropped (its share
//!    is *excluded*);
//! 2. both sides are enclosed on the box: for `measured <= bound`, the box is **proved** when
//!    the measured side's upper end is at most the bound side's lower end (every point of the
//!    box, rounding included);
//! 3. otherwise the box's midpoint is evaluated plainly (`f64`): where it fails, the failure is
//!    confirmed rigorously by the enclosures at that one point (the measured side's lower end
//!    above the bound side's upper end) and the claim is **refuted**, with the point and a
//!    `dpclaims check` command reproducing it;
//! 4. otherwise the box is split in two at the middle of one axis (in the axis' scale: $\ln x$
//!    for a log axis; integer axes split between integers): of the axes, the one whose two halves
//!    leave the least overlap between the sides' enclosures (ties: the widest).
//!
//! The run stops when every box is decided, or when a budget (boxes evaluated, seconds) is
//! spent: the claim is then **undecided**, with the share of the space's volume left (each
//! axis measured in its own scale, an integer axis by its count of integers) and the largest
//! boxes where it is. A box of single points that is neither proved nor refuted (an equality
//! within rounding) stays undecided.

use crate::claim::{Claim, ClaimInfo, Measurement, RunSpec};
use crate::identity::{Alg, Deg, Frac, Identity, MAX_VARS};
use crate::interval::I;
use crate::params::Params;
use crate::space::{Axis, Range};
use crate::verdict::Relation;
use dpclaims_accounting::ParamError;
use serde::Serialize;
use std::collections::BinaryHeap;
use std::time::Instant;

pub use crate::claim::ClosedForm;

/// A claim given by its metadata and a closed form: its cases are points of the box (the given
/// ones), its measurement the enclosure at a point ([`ClosedForm::measure_point`]), and `prove`
/// proves it on the whole box.
pub struct FormClaim {
    /// Id, source, statement, mutants.
    pub info: ClaimInfo,
    /// The two sides.
    pub form: ClosedForm,
    /// The default cases (points of the box).
    pub cases: fn() -> Vec<Params>,
}

impl Claim for FormClaim {
    fn info(&self) -> &ClaimInfo {
        &self.info
    }
    fn cases(&self) -> Vec<Params> {
        (self.cases)()
    }
    fn measure(&self, case: &Params, run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError> {
        Ok(vec![self.form.measure_point(case, run.mutant)?])
    }
    fn closed_form(&self) -> Option<ClosedForm> {
        Some(self.form)
    }
}

/// An existing claim (its cases and measurement unchanged) with a closed form of its two sides
/// attached, so that `prove` proves it on a box.
pub struct WithForm {
    /// The claim.
    pub claim: &'static (dyn Claim + Sync),
    /// Its two sides as closed forms.
    pub form: ClosedForm,
}

impl Claim for WithForm {
    fn info(&self) -> &ClaimInfo {
        self.claim.info()
    }
    fn cases(&self) -> Vec<Params> {
        self.claim.cases()
    }
    fn measure(&self, case: &Params, run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError> {
        self.claim.measure(case, run)
    }
    fn space(&self) -> Option<crate::space::Space> {
        self.claim.space()
    }
    fn mutant_trials(&self, mutant: &str) -> Option<u64> {
        self.claim.mutant_trials(mutant)
    }
    fn closed_form(&self) -> Option<ClosedForm> {
        Some(self.form)
    }
}

/// How much a proof may spend.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Budget {
    /// Boxes evaluated at most.
    pub boxes: usize,
    /// Wall-clock seconds at most.
    pub seconds: f64,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            boxes: 200_000,
            seconds: 20.0,
        }
    }
}

/// The outcome of a proof.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProofVerdict {
    /// Holds on every point of the space.
    Proved,
    /// Fails at a point (confirmed rigorously there).
    Refuted,
    /// The budget was spent first.
    Undecided,
}

impl ProofVerdict {
    /// `proved`, `refuted` or `undecided`.
    pub fn as_str(self) -> &'static str {
        match self {
            ProofVerdict::Proved => "proved",
            ProofVerdict::Refuted => "refuted",
            ProofVerdict::Undecided => "undecided",
        }
    }
}

/// A box of the space: one `[lo, hi]` per axis, and its share of the space's volume.
#[derive(Debug, Clone, Serialize)]
pub struct ProofBox {
    /// `(axis, lo, hi)` per axis.
    pub ranges: Vec<(&'static str, f64, f64)>,
    /// Its share of the space's volume (each axis in its own scale).
    pub share: f64,
}

/// A point where the claim fails.
#[derive(Debug, Clone, Serialize)]
pub struct Counterexample {
    /// The case (the claim's first default case with the axis values written in).
    pub params: Params,
    /// Measured side, plainly evaluated.
    pub measured: f64,
    /// Bound side, plainly evaluated.
    pub bound: f64,
    /// Enclosure of the measured side at the point.
    pub measured_enclosure: (f64, f64),
    /// Enclosure of the bound side at the point.
    pub bound_enclosure: (f64, f64),
    /// A command that reproduces it.
    pub command: String,
}

/// What `prove` found for one claim.
#[derive(Debug, Clone, Serialize)]
pub struct ProofResult {
    /// The claim's id.
    pub claim: &'static str,
    /// The mutant proved against, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mutant: Option<String>,
    /// The verdict.
    pub verdict: ProofVerdict,
    /// Boxes evaluated.
    pub boxes: usize,
    /// Share of the space proved.
    pub proved_share: f64,
    /// Share outside the hypotheses.
    pub excluded_share: f64,
    /// Share left undecided (0 when proved; not meaningful when refuted).
    pub undecided_share: f64,
    /// The largest undecided boxes (at most 5).
    pub undecided_boxes: Vec<ProofBox>,
    /// Where it fails.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counterexample: Option<Counterexample>,
    /// The budget.
    pub budget: Budget,
    /// Wall time (not reproducible; `boxes` is, when the box budget stopped it).
    pub seconds: f64,
}

#[derive(Debug, Clone)]
struct Node {
    x: Vec<I>,
    share: f64,
}
impl PartialEq for Node {
    fn eq(&self, o: &Self) -> bool {
        self.share == o.share
    }
}
impl Eq for Node {}
impl PartialOrd for Node {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Node {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        self.share.total_cmp(&o.share)
    }
}

/// The width of `x` on axis `a` as a share of the axis (its scale).
fn axis_share(a: &Axis, x: I) -> f64 {
    match a.range {
        Range::Real { lo, hi, log } => {
            if hi == lo {
                1.0
            } else if log {
                (x.hi.ln() - x.lo.ln()) / (hi.ln() - lo.ln())
            } else {
                (x.hi - x.lo) / (hi - lo)
            }
        }
        Range::Int { lo, hi, .. } => (x.hi - x.lo + 1.0) / ((hi - lo) as f64 + 1.0),
        Range::Choice { .. } => 1.0,
    }
}

/// Splits `x` on axis `a`: `None` when it is a single point on that axis.
fn split(a: &Axis, x: I) -> Option<(I, I)> {
    match a.range {
        Range::Real { log, .. } => {
            if x.lo == x.hi {
                return None;
            }
            let m = if log && x.lo > 0.0 {
                (x.lo.sqrt() * x.hi.sqrt()).clamp(x.lo, x.hi)
            } else {
                x.mid()
            };
            if m <= x.lo || m >= x.hi {
                return None;
            }
            Some((I::new(x.lo, m), I::new(m, x.hi)))
        }
        Range::Int { log, .. } => {
            if x.hi - x.lo < 1.0 {
                return None;
            }
            let m = if log && x.lo >= 1.0 {
                (x.lo * x.hi).sqrt().floor()
            } else {
                ((x.lo + x.hi) / 2.0).floor()
            }
            .clamp(x.lo, x.hi - 1.0);
            Some((I::new(x.lo, m), I::new(m + 1.0, x.hi)))
        }
        Range::Choice { .. } => None,
    }
}

fn midpoint(a: &Axis, x: I) -> f64 {
    match a.range {
        Range::Real { log: true, .. } if x.lo > 0.0 => {
            (x.lo.sqrt() * x.hi.sqrt()).clamp(x.lo, x.hi)
        }
        Range::Int { .. } => x.mid().round().clamp(x.lo, x.hi),
        _ => x.mid(),
    }
}

fn root(form: &ClosedForm) -> Result<Vec<I>, crate::Error> {
    form.axes
        .iter()
        .map(|a| match a.range {
            Range::Real { lo, hi, .. } => Ok(I::new(lo, hi)),
            Range::Int { lo, hi, .. } => Ok(I::new(lo as f64, hi as f64)),
            Range::Choice { .. } => Err(crate::Error::Input(format!(
                "axis `{}` is a choice: a closed form's box has real and integer axes only",
                a.name
            ))),
        })
        .collect()
}

/// `dpclaims check ID --exact --set k=v ...` for a case.
pub fn reproduce(id: &str, case: &Params, mutant: Option<&str>) -> String {
    let opts = crate::search::SearchOptions {
        mutant: mutant.map(str::to_string),
        ..crate::search::SearchOptions::default()
    };
    crate::search::reproduce(id, case, crate::harness::DEFAULT_SEED, &opts)
}

/// Proves `claim` (its closed form, or exactly its identity ([`crate::identity`]); an error
/// when it has neither) on its box, against `mutant` when given, within `budget`.
pub fn prove(
    claim: &dyn Claim,
    mutant: Option<&str>,
    budget: Budget,
) -> Result<ProofResult, crate::Error> {
    let id = claim.info().id;
    if let Some(m) = mutant
        && !claim.info().mutants.iter().any(|x| x.name == m)
    {
        return Err(crate::Error::Input(format!(
            "claim `{id}` has no mutant `{m}`"
        )));
    }
    if let Some(identity) = claim.identity() {
        if identity.vars.len() > MAX_VARS {
            return Err(crate::Error::Input(format!(
                "identity `{id}` has {} variables, at most {MAX_VARS}",
                identity.vars.len()
            )));
        }
        return Ok(prove_identity(claim, &identity, mutant, budget));
    }
    let form = claim.closed_form().ok_or_else(|| {
        crate::Error::Input(format!(
            "claim `{id}` has no closed form of its two sides nor an identity (a simulated or numerical claim): use `check` or `search`"
        ))
    })?;
    let start = Instant::now();
    let mut heap = BinaryHeap::new();
    heap.push(Node {
        x: root(&form)?,
        share: 1.0,
    });
    let (mut proved, mut excluded) = (0.0, 0.0);
    let mut stuck: Vec<Node> = Vec::new();
    let mut boxes = 0;
    let mut counterexample = None;
    while let Some(node) = heap.pop() {
        if boxes >= budget.boxes || start.elapsed().as_secs_f64() > budget.seconds {
            heap.push(node);
            break;
        }
        boxes += 1;
        let admits = form.admits.map_or(Some(true), |h| h(&node.x));
        if admits == Some(false) {
            excluded += node.share;
            continue;
        }
        let (m, b) = (form.interval)(&node.x, mutant);
        if form.holds(m, b) {
            proved += node.share;
            continue;
        }
        // The midpoint, plainly; a failure there confirmed by the enclosures at that point.
        let p: Vec<f64> = form
            .axes
            .iter()
            .zip(&node.x)
            .map(|(a, x)| midpoint(a, *x))
            .collect();
        let px: Vec<I> = p.iter().map(|v| I::point(*v)).collect();
        if form.admits.is_none_or(|h| h(&px) == Some(true)) {
            let (pm, pb) = (form.point)(&p, mutant);
            let (em, eb) = (form.interval)(&px, mutant);
            if form.fails_plain(pm, pb) && form.fails(em, eb) {
                let mut case = claim.cases().into_iter().next().unwrap_or_default();
                for (a, v) in form.axes.iter().zip(&p) {
                    let v = match a.range {
                        Range::Int { .. } => serde_json::Value::from(*v as u64),
                        _ => serde_json::Value::from(*v),
                    };
                    case.set(a.name, v);
                }
                counterexample = Some(Counterexample {
                    command: reproduce(id, &case, mutant),
                    params: case,
                    measured: pm,
                    bound: pb,
                    measured_enclosure: (em.lo, em.hi),
                    bound_enclosure: (eb.lo, eb.hi),
                });
                break;
            }
        }
        // Split where it helps most: of the axes that can be split, the one whose halves
        // leave the least overlap between the sides (ties: the widest in its scale).
        let mut best: Option<(f64, f64, usize, I, I)> = None;
        for (k, a) in form.axes.iter().enumerate() {
            let Some((l, r)) = split(a, node.x[k]) else {
                continue;
            };
            let mut overlap = 0.0;
            for half in [l, r] {
                let mut x = node.x.clone();
                x[k] = half;
                let (m, b) = (form.interval)(&x, mutant);
                let o = match form.relation {
                    Relation::AtLeast => b.hi - m.lo,
                    _ => m.hi - b.lo,
                };
                overlap += if o.is_nan() {
                    f64::INFINITY
                } else {
                    o.max(0.0)
                };
            }
            let width = -axis_share(a, node.x[k]);
            if best
                .as_ref()
                .is_none_or(|(o, w, ..)| (overlap, width) < (*o, *w))
            {
                best = Some((overlap, width, k, l, r));
            }
        }
        match best.map(|(_, _, k, l, r)| (k, (l, r))) {
            Some((k, (l, r))) => {
                let whole = axis_share(&form.axes[k], node.x[k]);
                for half in [l, r] {
                    let mut x = node.x.clone();
                    x[k] = half;
                    let share = node.share * axis_share(&form.axes[k], half) / whole;
                    heap.push(Node { x, share });
                }
            }
            None => stuck.push(node),
        }
    }
    let verdict = if counterexample.is_some() {
        ProofVerdict::Refuted
    } else if heap.is_empty() && stuck.is_empty() {
        ProofVerdict::Proved
    } else {
        ProofVerdict::Undecided
    };
    let mut left: Vec<Node> = heap.into_vec();
    left.extend(stuck);
    left.sort_by(|a, b| b.cmp(a));
    let undecided_share = if verdict == ProofVerdict::Proved {
        0.0
    } else {
        left.iter().map(|n| n.share).sum()
    };
    Ok(ProofResult {
        claim: id,
        mutant: mutant.map(str::to_string),
        verdict,
        boxes,
        proved_share: proved,
        excluded_share: excluded,
        undecided_share,
        undecided_boxes: left
            .iter()
            .take(5)
            .map(|n| ProofBox {
                ranges: form
                    .axes
                    .iter()
                    .zip(&n.x)
                    .map(|(a, x)| (a.name, x.lo, x.hi))
                    .collect(),
                share: n.share,
            })
            .collect(),
        counterexample,
        budget,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// One line per result: the verdict, the shares, the counterexample's command or the largest
/// undecided box.
pub fn table(results: &[ProofResult]) -> String {
    let mut out = String::new();
    for r in results {
        let name = match &r.mutant {
            Some(m) => format!("{} --mutant {m}", r.claim),
            None => r.claim.to_string(),
        };
        match r.verdict {
            ProofVerdict::Proved => out.push_str(&format!(
                "{name}: proved on the space ({} boxes; {:.3}% of the volume outside the hypotheses)\n",
                r.boxes,
                100.0 * r.excluded_share
            )),
            ProofVerdict::Refuted => {
                if let Some(c) = &r.counterexample {
                    out.push_str(&format!(
                        "{name}: refuted at {} (measured {} vs bound {}; enclosures [{:e}, {:e}] vs [{:e}, {:e}]) after {} boxes\n  reproduce: {}\n",
                        c.params.label_without(&[]),
                        c.measured,
                        c.bound,
                        c.measured_enclosure.0,
                        c.measured_enclosure.1,
                        c.bound_enclosure.0,
                        c.bound_enclosure.1,
                        r.boxes,
                        c.command
                    ))
                }
            }
            ProofVerdict::Undecided => {
                out.push_str(&format!(
                    "{name}: undecided after {} boxes / {:.1} s: {:.3e} of the volume left ({:.3}% proved)\n",
                    r.boxes,
                    r.seconds,
                    r.undecided_share,
                    100.0 * r.proved_share
                ));
                for b in &r.undecided_boxes {
                    let ranges: Vec<String> = b
                        .ranges
                        .iter()
                        .map(|(n, lo, hi)| format!("{n} in [{lo}, {hi}]"))
                        .collect();
                    out.push_str(&format!("  left: {} (share {:.3e})\n", ranges.join(", "), b.share));
                }
            }
        }
    }
    out
}

/// Grids with more points than this are not evaluated (the proof is then undecided).
pub const MAX_GRID: u64 = 2_000_000;

/// Proves (or refutes) the identity of `claim` against `mutant` exactly, as [`crate::identity`]
/// says; `budget.seconds` caps the time (undecided past it).
pub fn prove_identity(
    claim: &dyn Claim,
    identity: &Identity,
    mutant: Option<&str>,
    budget: Budget,
) -> ProofResult {
    let id = claim.info().id;
    let k = identity.vars.len();
    let start = Instant::now();
    let vars: Vec<Deg> = (0..k).map(Deg::var).collect();
    let (da, db) = (identity.degree)(&vars, mutant);
    let diff = da - db;
    let sizes: Vec<u64> = (0..k)
        .map(|i| u64::from(diff.num[i] + diff.den[i]) + 1)
        .collect();
    let total = sizes
        .iter()
        .try_fold(1u64, |a, s| a.checked_mul(*s))
        .unwrap_or(u64::MAX);
    let mut result = ProofResult {
        claim: id,
        mutant: mutant.map(str::to_string),
        verdict: ProofVerdict::Undecided,
        boxes: 0,
        proved_share: 0.0,
        excluded_share: 0.0,
        undecided_share: 1.0,
        undecided_boxes: Vec::new(),
        counterexample: None,
        budget,
        seconds: 0.0,
    };
    if total > MAX_GRID {
        result.seconds = start.elapsed().as_secs_f64();
        return result;
    }
    let mut point = vec![0i64; k];
    let mut defined_somewhere = false;
    let mut overflow = false;
    for _ in 0..total {
        if start.elapsed().as_secs_f64() > budget.seconds {
            result.seconds = start.elapsed().as_secs_f64();
            return result;
        }
        result.boxes += 1;
        let x: Vec<Frac> = point.iter().map(|v| Frac::int(*v)).collect();
        let (a, b) = (identity.exact)(&x, mutant);
        let d = a - b;
        if !d.ok {
            overflow = true;
        } else if d.d != 0 {
            defined_somewhere = true;
            if d.n != 0 {
                let mut case = claim.cases().into_iter().next().unwrap_or_default();
                for (name, v) in identity.vars.iter().zip(&point) {
                    case.set(name, serde_json::Value::from(*v));
                }
                let (av, bv) = (a.to_f64(), b.to_f64());
                result.counterexample = Some(Counterexample {
                    command: reproduce(id, &case, mutant),
                    params: case,
                    measured: av,
                    bound: bv,
                    measured_enclosure: (av, av),
                    bound_enclosure: (bv, bv),
                });
                result.verdict = ProofVerdict::Refuted;
                result.seconds = start.elapsed().as_secs_f64();
                return result;
            }
        }
        // The next grid point (odometer order).
        for (i, s) in sizes.iter().enumerate() {
            point[i] += 1;
            if (point[i] as u64) < *s {
                break;
            }
            point[i] = 0;
        }
    }
    if defined_somewhere && !overflow {
        result.verdict = ProofVerdict::Proved;
        result.proved_share = 1.0;
        result.undecided_share = 0.0;
    }
    result.seconds = start.elapsed().as_secs_f64();
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claim::Mutant;
    use crate::claim::Statistic;
    use crate::interval::{Real, SumTo};

    const BUMP: Mutant = Mutant {
        name: "bump",
        description: "bound side: a bump of height 0.7 and width 0.01 at x = 0.3",
    };

    fn info(id: &'static str) -> ClaimInfo {
        ClaimInfo {
            id,
            paper: "test",
            result: "test",
            statement: "test",
            mutants: &[BUMP],
            known_false: false,
            tautologies: &[],
            perturbation: None,
        }
    }

    /// $e^x\ge x+\frac12$ for $-5\le x\le5$ (the gap is at least $\frac12$); the mutant adds
    /// $0.7e^{-((x-0.3)/0.01)^2}$ to the bound, false on about 0.2 % of the box only.
    fn exp_sides<R: Real>(x: &[R], m: Option<&str>) -> (R, R) {
        let mut b = x[0] + R::cst(0.5);
        if m == Some("bump") {
            let z = (x[0] - R::cst(0.3)) / R::cst(0.01);
            b = b + R::cst(0.7) * (-z.sqr()).exp();
        }
        (x[0].exp(), b)
    }
    static EXP: FormClaim = FormClaim {
        info: INFO_EXP,
        form: ClosedForm {
            axes: &[Axis::real("x", -5.0, 5.0)],
            relation: Relation::AtLeast,
            interval: exp_sides::<I>,
            point: exp_sides::<f64>,
            admits: None,
        },
        cases: || vec![crate::params! { "x" => 0.3 }],
    };
    const INFO_EXP: ClaimInfo = ClaimInfo {
        id: "test.exp",
        paper: "test",
        result: "test",
        statement: "e^x >= x + 1/2",
        mutants: &[BUMP],
        known_false: false,
        tautologies: &[],
        perturbation: None,
    };

    /// Two axes and the special functions: $H_T\le\ln T+1.001$ (integer $T\le10^{12}$) and
    /// $\Phi(-x)\le\frac12e^{-x^2/2}$ for $0.1\le x\le30$, and $\sum_{t\le T}t^{-2}<\pi^2/6$ for
    /// $T\le 2000$, each times $1\le s\le2$; the mutant makes the last one $\le 1.6s$ (false for
    /// $T\ge 23$ only).
    fn special_sides<R: Real + SumTo>(x: &[R], m: Option<&str>) -> (R, R) {
        let (t, y, s) = (x[0], x[1], x[2]);
        let h = t.harmonic() - t.ln() - R::cst(1.001);
        let p = (-y).phi() - R::cst(0.5) * (-(y.sqr()) / R::cst(2.0)).exp();
        let tt = t;
        let zeta = R::sum_to(tt, |k| R::cst(1.0) / k.sqr());
        let cap = if m == Some("bump") {
            R::cst(1.6)
        } else {
            R::real(std::f64::consts::PI * std::f64::consts::PI / 6.0) - R::cst(1e-15)
        };
        // Every term is <= 0 when the three hold.
        let measured = s * h.max(p).max(zeta - cap);
        (measured, R::cst(0.0))
    }

    const SPECIAL_AXES: &[Axis] = &[
        Axis::int("T", 1, 2_000),
        Axis::real("x", 0.1, 30.0),
        Axis::real("s", 1.0, 2.0),
    ];

    fn special(id: &'static str) -> FormClaim {
        FormClaim {
            info: info(id),
            form: ClosedForm {
                axes: SPECIAL_AXES,
                relation: Relation::AtMost,
                interval: special_sides::<I>,
                point: special_sides::<f64>,
                admits: None,
            },
            cases: || vec![crate::params! { "T" => 10u64, "x" => 1.0, "s" => 1.0 }],
        }
    }

    const SMALL: Budget = Budget {
        boxes: 200_000,
        seconds: 60.0,
    };

    #[test]
    fn a_true_inequality_is_proved_and_its_mutant_refuted_on_a_sliver() {
        let r = prove(&EXP, None, SMALL).unwrap();
        assert_eq!(r.verdict, ProofVerdict::Proved, "{}", table(&[r.clone()]));
        assert!((r.proved_share - 1.0).abs() < 1e-12);
        let m = prove(&EXP, Some("bump"), SMALL).unwrap();
        assert_eq!(m.verdict, ProofVerdict::Refuted, "{}", table(&[m.clone()]));
        let c = m.counterexample.unwrap();
        let x = c.params.f64("x").unwrap();
        // The point is in the sliver where the mutant fails, and fails plainly.
        assert!((x - 0.3).abs() < 0.01, "{x}");
        let (me, b) = exp_sides::<f64>(&[x], Some("bump"));
        assert!(me < b && c.measured < c.bound);
        assert!(c.measured_enclosure.1 < c.bound_enclosure.0);
        assert!(c.command.contains("--mutant bump") && c.command.contains("--set x="));
        // A small budget leaves it undecided, with the volume left said.
        let u = prove(
            &EXP,
            Some("bump"),
            Budget {
                boxes: 3,
                seconds: 10.0,
            },
        )
        .unwrap();
        assert_eq!(u.verdict, ProofVerdict::Undecided);
        assert!(u.undecided_share > 0.0 && !u.undecided_boxes.is_empty());
    }

    #[test]
    fn special_functions_and_integer_axes() {
        let c = special("test.special");
        let r = prove(&c, None, SMALL).unwrap();
        assert_eq!(r.verdict, ProofVerdict::Proved, "{}", table(&[r.clone()]));
        let m = prove(&c, Some("bump"), SMALL).unwrap();
        assert_eq!(m.verdict, ProofVerdict::Refuted, "{}", table(&[m.clone()]));
        assert!(m.counterexample.unwrap().params.u64("T").unwrap() >= 23);
    }

    #[test]
    fn point_measurement_agrees_with_the_proof() {
        // respected where proved, violated at the refuting point.
        let ok = EXP
            .form
            .measure_point(&crate::params! { "x" => 0.3 }, None)
            .unwrap();
        let bad = EXP
            .form
            .measure_point(&crate::params! { "x" => 0.3 }, Some("bump"))
            .unwrap();
        let Statistic::Computed { value, error } = ok.statistic else {
            panic!()
        };
        assert!(value - error >= ok.bound);
        let Statistic::Computed { value, error } = bad.statistic else {
            panic!()
        };
        assert!(value + error < bad.bound);
    }
}
