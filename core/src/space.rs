//! A claim's parameter space: the ranges and choices its statement quantifies over
//! ([`Axis`], [`Range`]) and the theorem's hypotheses ([`Constraint`]), declared by
//! [`Claim::space`](crate::claim::Claim::space) and searched by [`crate::search`].

use crate::params::Params;
use dpclaims_accounting::ParamError;
use proptest::strategy::{BoxedStrategy, Strategy};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeSet;

/// The values one parameter ranges over.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Range {
    /// A real in `[lo, hi]`, drawn uniformly (uniformly in $\ln x$ when `log`, which needs
    /// $0<$ `lo`).
    Real {
        /// Lower end.
        lo: f64,
        /// Upper end.
        hi: f64,
        /// Log scale.
        log: bool,
    },
    /// An integer in `[lo, hi]`, drawn uniformly (log-uniformly when `log`, `lo` $\ge1$).
    Int {
        /// Lower end.
        lo: u64,
        /// Upper end.
        hi: u64,
        /// Log scale.
        log: bool,
    },
    /// One of these strings.
    Choice {
        /// The choices (the first is the simplest, where shrinking goes).
        values: &'static [&'static str],
    },
}

/// One searched parameter.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Axis {
    /// The case parameter it sets.
    pub name: &'static str,
    /// Its values.
    pub range: Range,
}

impl Axis {
    /// A real axis on a linear scale.
    pub const fn real(name: &'static str, lo: f64, hi: f64) -> Self {
        Self {
            name,
            range: Range::Real { lo, hi, log: false },
        }
    }
    /// A real axis on a log scale.
    pub const fn log(name: &'static str, lo: f64, hi: f64) -> Self {
        Self {
            name,
            range: Range::Real { lo, hi, log: true },
        }
    }
    /// An integer axis (log scale when it starts at 1 or more and spans more than a decade).
    pub const fn int(name: &'static str, lo: u64, hi: u64) -> Self {
        Self {
            name,
            range: Range::Int {
                lo,
                hi,
                log: lo >= 1 && hi / 10 > lo,
            },
        }
    }
    /// A choice axis.
    pub const fn choice(name: &'static str, values: &'static [&'static str]) -> Self {
        Self {
            name,
            range: Range::Choice { values },
        }
    }

    /// Whether `v` is one of the axis' values.
    pub fn contains(&self, v: &Value) -> bool {
        match self.range {
            Range::Real { lo, hi, .. } => v.as_f64().is_some_and(|x| x >= lo && x <= hi),
            Range::Int { lo, hi, .. } => v.as_u64().is_some_and(|x| x >= lo && x <= hi),
            Range::Choice { values } => v.as_str().is_some_and(|s| values.contains(&s)),
        }
    }

    fn validate(&self) -> Result<(), String> {
        let ok = match self.range {
            Range::Real { lo, hi, log } => {
                lo.is_finite() && hi.is_finite() && lo <= hi && (!log || lo > 0.0)
            }
            Range::Int { lo, hi, log } => lo <= hi && (!log || lo >= 1),
            Range::Choice { values } => !values.is_empty(),
        };
        if ok {
            Ok(())
        } else {
            Err(format!(
                "axis `{}` has an empty or invalid range",
                self.name
            ))
        }
    }

    fn strategy(self) -> BoxedStrategy<Value> {
        match self.range {
            Range::Real { lo, hi, .. } if lo == hi => {
                proptest::strategy::Just(Value::from(lo)).boxed()
            }
            Range::Real { lo, hi, log: true } => (lo.ln()..=hi.ln())
                .prop_map(move |l| Value::from(l.exp().clamp(lo, hi)))
                .boxed(),
            Range::Real { lo, hi, log: false } => (lo..=hi).prop_map(Value::from).boxed(),
            Range::Int { lo, hi, log: true } => ((lo as f64).ln()..=(hi as f64 + 1.0).ln())
                .prop_map(move |l| Value::from((l.exp().floor() as u64).clamp(lo, hi)))
                .boxed(),
            Range::Int { lo, hi, log: false } => (lo..=hi).prop_map(Value::from).boxed(),
            Range::Choice { values } => proptest::sample::select(values)
                .prop_map(Value::from)
                .boxed(),
        }
    }
}

/// A hypothesis of the theorem that every searched instance must satisfy.
#[derive(Debug, Clone, Copy)]
pub struct Constraint {
    /// The hypothesis as printed, e.g. `eta <= 1/L`.
    pub hypothesis: &'static str,
    /// Whether a case satisfies it (an error counts as not satisfied).
    pub holds: fn(&Params) -> Result<bool, ParamError>,
}

impl Serialize for Constraint {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.hypothesis)
    }
}

/// The space a claim's statement quantifies over, as data beside its default cases.
#[derive(Debug, Clone, Serialize)]
pub struct Space {
    /// The case the searched parameters are written into; its other parameters (and its
    /// `trials`, the default size used to confirm) are kept.
    pub base: Params,
    /// The searched parameters.
    pub axes: Vec<Axis>,
    /// The theorem's hypotheses.
    pub constraints: Vec<Constraint>,
    /// Trials per candidate while searching (cases that simulate).
    pub search_trials: u64,
    /// Parameters computed from the searched ones (e.g. a checkpoint `t = T`), applied after
    /// the axes and before the constraints.
    #[serde(skip)]
    pub derive: Option<fn(&mut Params)>,
}

impl Space {
    /// A space around `base` with no axes yet.
    pub fn new(base: Params, search_trials: u64) -> Self {
        Self {
            base,
            axes: Vec::new(),
            constraints: Vec::new(),
            search_trials,
            derive: None,
        }
    }

    /// Adds an axis.
    pub fn axis(mut self, axis: Axis) -> Self {
        self.axes.push(axis);
        self
    }

    /// Adds a hypothesis.
    pub fn constraint(
        mut self,
        hypothesis: &'static str,
        holds: fn(&Params) -> Result<bool, ParamError>,
    ) -> Self {
        self.constraints.push(Constraint { hypothesis, holds });
        self
    }

    /// Sets the derived parameters.
    pub fn derived(mut self, derive: fn(&mut Params)) -> Self {
        self.derive = Some(derive);
        self
    }

    /// Checks the space itself: at least one axis, each valid and declared once (the base case
    /// need not lie inside it: it is evaluated first, and counted as rejected if outside).
    pub fn validate(&self) -> Result<(), String> {
        let mut names = BTreeSet::new();
        for a in &self.axes {
            a.validate()?;
            if !names.insert(a.name) {
                return Err(format!("axis `{}` is declared twice", a.name));
            }
        }
        if self.axes.is_empty() {
            return Err("the space has no axes".into());
        }
        if self.search_trials < 2 {
            return Err("search_trials must be at least 2".into());
        }
        Ok(())
    }

    /// The case for axis values `values` (in axis order): the base with them written in,
    /// then the derived parameters; `None` when it is outside the space (a range or a
    /// hypothesis fails).
    pub fn case(&self, values: &[Value]) -> Option<Params> {
        let mut p = self.base.clone();
        for (a, v) in self.axes.iter().zip(values) {
            if !a.contains(v) {
                return None;
            }
            p.set(a.name, v.clone());
        }
        if let Some(d) = self.derive {
            d(&mut p);
        }
        self.admits(&p).then_some(p)
    }

    /// Whether a full case satisfies every hypothesis.
    pub fn admits(&self, p: &Params) -> bool {
        self.constraints
            .iter()
            .all(|c| (c.holds)(p).unwrap_or(false))
    }

    /// A proptest strategy over the space: the axes' values (in axis order), filtered by the
    /// hypotheses. Map them to cases with [`Space::case`].
    pub fn strategy(&self) -> BoxedStrategy<Vec<Value>> {
        let axes: Vec<BoxedStrategy<Value>> = self.axes.iter().map(|a| a.strategy()).collect();
        let space = self.clone();
        axes.prop_filter("the theorem's hypotheses", move |v| space.case(v).is_some())
            .boxed()
    }

    pub(crate) fn values_of(&self, p: &Params) -> Vec<Value> {
        self.axes
            .iter()
            .map(|a| p.0.get(a.name).cloned().unwrap_or(Value::Null))
            .collect()
    }
}
