//! The report's per-claim plots, on each claim's natural axis (issue 19).
//!
//! For the outcomes of one claim, [`claim_plots`] draws:
//! - **Slope claims** (outcomes with [`Outcome::design`] points: a rate exponent fitted through
//!   design points): the points' means with their intervals on log–log axes and the fitted
//!   least-squares line through them (dashed), its slope with its interval and the bound in the
//!   legend; the x axis is the design variable (the case's `axis` parameter, or [`SLOPE_X`]).
//! - **Every other claim with a numeric parameter that varies across its outcomes**: the
//!   measured value with its interval as error bars, and the bound as a line, both in the
//!   claim's own units, against that parameter. The x parameter is the numeric one with the
//!   most distinct values (ties broken by [`PREFERRED`]), unless [`X_AXIS`] names another;
//!   outcomes that also differ in other parameters form one curve per combination of those
//!   (legend), after dropping the parameters that the x value and the others determine (a
//!   derived value such as a calibrated σ does not split curves). Parameters naming *which
//!   quantity* is measured ([`PANELS`]) split the outcomes into separate plots, since their
//!   units differ. A plot holds at most [`MAX_CURVES`] curves; more make further plots.
//! - **A claim where no numeric parameter varies**: the measured / bound ratio per case on a
//!   labelled categorical strip (the case's distinguishing parameters, not an index).
//!
//! An axis is logarithmic when all its values are positive and they span more than a decade.
//! Where several curves share a plot, their markers are shifted sideways by 1% of the x axis per
//! curve (centred on the true x), so that equal values stay visible; the lines keep the exact x.
//! Outcomes whose measured mean is not finite are not drawn and are counted in the plot's
//! caption; a non-finite bound leaves a gap in the bound line.

use crate::plot::{self, Point, Row, Series, Style};
use dpclaims_core::verdict::{Outcome, Relation};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// Claims whose x axis is not the parameter with the most distinct values: `Some(key)` names
/// the x parameter, `None` forces the categorical strip. The most distinct values are often a
/// *derived* value (a calibrated σ, a worst step, a constant computed from the case).
pub const X_AXIS: &[(&str, Option<&str>)] = &[
    ("adaptive.thm1.gdp", Some("epsilon")),
    ("contraction.main", Some("T")),
    ("contraction.thm3", Some("T")),
    ("last_iterate.lemma1", Some("rdp_epsilon")),
    ("last_iterate.prop4", Some("T")),
    ("last_iterate.thm1.dp", Some("epsilon")),
    ("last_iterate.thm1.rdp", Some("T")),
    ("last_iterate.thm1.step.from_cor3", Some("w_norm_over_eta0")),
    (
        "last_iterate.thm1.step.from_cor3.corrected",
        Some("w_norm_over_eta0"),
    ),
    ("multipass.lemma4.step.gauss_integral", Some("d")),
    ("multipass.lemma4.step.gauss_integral.norm", Some("d")),
    ("multipass.lemma6", Some("m")),
    ("multipass.lemma6.step.gaussian_mechanism", Some("epsilon")),
    ("multipass.prop1", Some("eta")),
    ("multipass.prop5.step.drv", Some("T1")),
    ("renyi_discretization.complexity", Some("epsilon")),
    ("subspace.thm1", Some("m")),
];

/// The design variable of slope claims whose cases do not name it in an `axis` parameter.
pub const SLOPE_X: &[(&str, &str)] = &[("subspace.rate", "p")];

/// Tie-break among x candidates with as many distinct values: earlier in this list first, then
/// by name. Parameters excluded from the x axis: [`NOT_X`].
pub const PREFERRED: &[&str] = &[
    "t", "T", "r", "n", "p", "m", "d", "alpha", "q", "epsilon", "eta", "sigma", "delta",
];

/// Parameters that are never an x axis: sizes of the computation, not of the problem.
pub const NOT_X: &[&str] = &["trials", "cells", "tolerance"];

/// Parameters naming which quantity an outcome measures: each value gets its own plot.
pub const PANELS: &[&str] = &["component", "quantity", "inequality", "statement", "step"];

/// The most curves in one plot.
pub const MAX_CURVES: usize = 8;

/// One plot of a claim.
#[derive(Debug, Clone, PartialEq)]
pub struct ClaimPlot {
    /// The file name (`CLAIM.svg`, `CLAIM-2.svg`, ...).
    pub file: String,
    /// What is on the axes, for the report (`x: T (log), y: measured and bound; curves by
    /// instance`).
    pub axes: String,
    /// The SVG.
    pub svg: String,
}

fn as_number(v: &Value) -> Option<f64> {
    v.as_f64().filter(|x| x.is_finite())
}

/// A parameter value as a label: strings bare, numbers short, anything else as JSON (shortened).
fn value_label(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => match as_number(other) {
            Some(x) => plot::tick(x),
            None => {
                let s = other.to_string();
                if s.chars().count() > 24 {
                    format!("{}…", s.chars().take(23).collect::<String>())
                } else {
                    s
                }
            }
        },
    }
}

fn get<'a>(o: &'a Outcome, key: &str) -> Option<&'a Value> {
    o.params.0.get(key)
}

/// The keys whose value differs between some of `outcomes` (a missing key counts as a value).
fn varying(outcomes: &[&Outcome]) -> Vec<String> {
    let keys: BTreeSet<&String> = outcomes.iter().flat_map(|o| o.params.0.keys()).collect();
    keys.into_iter()
        .filter(|k| {
            let first = outcomes.first().and_then(|o| get(o, k));
            outcomes.iter().any(|o| get(o, k) != first)
        })
        .cloned()
        .collect()
}

fn distinct(outcomes: &[&Outcome], key: &str) -> usize {
    outcomes
        .iter()
        .map(|o| get(o, key).map(Value::to_string).unwrap_or_default())
        .collect::<BTreeSet<_>>()
        .len()
}

/// `keys` without those the others (and `fixed`) determine: a key is dropped when no two
/// outcomes agree on `fixed` and the remaining keys but differ in it (order in the code).
pub(crate) fn distinguishing(
    outcomes: &[&Outcome],
    fixed: &[&str],
    keys: &[String],
) -> Vec<String> {
    let mut kept: Vec<String> = keys.to_vec();
    // Removal order: computation sizes first, then numbers (most distinct values first: derived
    // values), then lists, then names (strings), which label curves best.
    let kind = |k: &String| {
        if NOT_X.contains(&k.as_str()) {
            0
        } else if outcomes
            .iter()
            .all(|o| get(o, k).is_none_or(Value::is_number))
        {
            1
        } else if outcomes
            .iter()
            .any(|o| get(o, k).is_some_and(Value::is_string))
        {
            3
        } else {
            2
        }
    };
    let mut order = kept.clone();
    order.sort_by_key(|k| (kind(k), std::cmp::Reverse(distinct(outcomes, k)), k.clone()));
    for k in order {
        let rest: Vec<&str> = kept
            .iter()
            .filter(|j| **j != k)
            .map(String::as_str)
            .chain(fixed.iter().copied())
            .collect();
        let mut seen: BTreeMap<Vec<String>, String> = BTreeMap::new();
        let determined = outcomes.iter().all(|o| {
            let key: Vec<String> = rest
                .iter()
                .map(|j| get(o, j).map(Value::to_string).unwrap_or_default())
                .collect();
            let v = get(o, &k).map(Value::to_string).unwrap_or_default();
            seen.entry(key).or_insert_with(|| v.clone()) == &v
        });
        if determined {
            kept.retain(|j| *j != k);
        }
    }
    kept
}

/// `k=v, k=v` for the `keys` that `o` has.
fn label(o: &Outcome, keys: &[String]) -> String {
    keys.iter()
        .filter_map(|k| get(o, k).map(|v| format!("{k}={}", value_label(v))))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The label of each outcome of one claim on a categorical axis: its distinguishing parameters
/// (`(one case)` when there is only one).
pub fn case_labels(outcomes: &[&Outcome]) -> Vec<String> {
    let keys = distinguishing(outcomes, &[], &varying(outcomes));
    outcomes
        .iter()
        .map(|o| {
            if keys.is_empty() {
                "(one case)".to_string()
            } else {
                label(o, &keys)
            }
        })
        .collect()
}

fn log_axis(values: impl Iterator<Item = f64> + Clone) -> bool {
    let finite = values.filter(|v| v.is_finite());
    let (lo, hi) = finite.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
        (a.min(v), b.max(v))
    });
    lo > 0.0 && hi / lo > 10.0
}

/// The x parameter of `outcomes` of claim `id`: `Ok(None)` for the categorical strip.
pub fn x_parameter(id: &str, outcomes: &[&Outcome]) -> Option<String> {
    let numeric: Vec<String> = varying(outcomes)
        .into_iter()
        .filter(|k| {
            !NOT_X.contains(&k.as_str())
                && outcomes
                    .iter()
                    .all(|o| get(o, k).and_then(as_number).is_some())
        })
        .collect();
    if let Some((_, x)) = X_AXIS.iter().find(|(c, _)| *c == id) {
        match x {
            Some(k) if numeric.iter().any(|n| n == k) => return Some(k.to_string()),
            Some(_) => {}
            None => return None,
        }
    }
    let rank = |k: &String| {
        PREFERRED
            .iter()
            .position(|p| p == k)
            .unwrap_or(PREFERRED.len())
    };
    numeric.into_iter().max_by(|a, b| {
        distinct(outcomes, a)
            .cmp(&distinct(outcomes, b))
            .then(rank(b).cmp(&rank(a)))
            .then(b.cmp(a))
    })
}

fn relation_name(r: &Relation) -> &'static str {
    match r {
        Relation::AtMost => "bound (measured <= bound)",
        Relation::AtLeast => "lower bound (measured >= bound)",
        Relation::Reproduces { .. } => "exact value (measured == value)",
        Relation::Within { .. } => "window upper end (measured in window)",
        Relation::LowerLimitAtMost => "bound (lower limit <= bound)",
    }
}

fn title(id: &str, suffix: &str) -> String {
    if suffix.is_empty() {
        id.to_string()
    } else {
        format!("{id}: {suffix}")
    }
}

/// The plots of claim `id` from its `outcomes` (module documentation). A claim with no outcome
/// has no plot.
///
/// # Errors
/// A plotting error (e.g. no finite value to draw), naming the claim.
pub fn claim_plots(id: &str, outcomes: &[&Outcome]) -> Result<Vec<ClaimPlot>, String> {
    let mut plots: Vec<(String, String)> = Vec::new();
    let (slopes, others): (Vec<&Outcome>, Vec<&Outcome>) =
        outcomes.iter().partition(|o| !o.design.is_empty());
    // Slope outcomes, one plot per design variable.
    let slope_x = |o: &Outcome| -> String {
        get(o, "axis")
            .and_then(Value::as_str)
            .map(str::to_string)
            .or_else(|| {
                SLOPE_X
                    .iter()
                    .find(|(c, _)| *c == id)
                    .map(|(_, x)| x.to_string())
            })
            .unwrap_or_else(|| "x (design point)".into())
    };
    let axes_of_slopes: BTreeSet<String> = slopes.iter().map(|o| slope_x(o)).collect();
    for x in axes_of_slopes {
        let mine: Vec<&Outcome> = slopes.iter().copied().filter(|o| slope_x(o) == x).collect();
        let labels = case_labels(&mine);
        for chunk in chunks(&mine.iter().zip(labels).collect::<Vec<_>>()) {
            let series = chunk
                .iter()
                .enumerate()
                .flat_map(|(c, (o, l))| slope_series(o, l, c))
                .collect::<Vec<_>>();
            let svg = plot::xy_svg(
                &title(id, "fitted log-log slopes"),
                &x,
                "mean at each design point (intervals simultaneous per slope)",
                &series,
                true,
                true,
            )
            .map_err(|e| format!("{id}: {e}"))?;
            plots.push((
                format!("x: {x} (log), y: mean per design point (log), fitted slopes"),
                svg,
            ));
        }
    }
    if !others.is_empty() {
        match x_parameter(id, &others) {
            Some(x) => {
                for (panel, mine) in panels(&others) {
                    natural(id, &x, &panel, &mine, &mut plots)?;
                }
            }
            None => plots.push(strip(id, &others)?),
        }
    }
    Ok(plots
        .into_iter()
        .enumerate()
        .map(|(i, (axes, svg))| ClaimPlot {
            file: if i == 0 {
                format!("{id}.svg")
            } else {
                format!("{id}-{}.svg", i + 1)
            },
            axes,
            svg,
        })
        .collect())
}

/// The categorical strip of `outcomes`: measured / bound per case when every ratio is finite,
/// else the measured values with each case's bound as a red dash, in the claim's units.
fn strip(id: &str, outcomes: &[&Outcome]) -> Result<(String, String), String> {
    let labels = case_labels(outcomes);
    let ratios: Option<Vec<Row>> = outcomes
        .iter()
        .zip(labels.clone())
        .map(|(o, l)| ratio_row(o, l, 0))
        .collect();
    let svg = match ratios {
        Some(rows) => plot::forest_svg(
            &title(id, "measured / bound per case"),
            "measured / bound (bound = 1)",
            &rows,
            Some((1.0, "bound")),
            &[],
            Some(ratio_range(&rows)),
        ),
        None => {
            let rows: Vec<Row> = outcomes
                .iter()
                .zip(labels)
                .filter(|(o, _)| o.measured.mean.is_finite())
                .map(|(o, label)| Row {
                    label,
                    value: o.measured.mean,
                    interval: Some(interval(o)),
                    mark: Some(o.bound).filter(|b| b.is_finite()),
                    color: 0,
                })
                .collect();
            let skipped = outcomes.len() - rows.len();
            plot::forest_svg(
                &title(
                    id,
                    &skipped_note("measured per case, its bound as a red dash", skipped),
                ),
                "measured (interval) and bound, in the claim's units",
                &rows,
                None,
                &[],
                None,
            )
        }
    }
    .map_err(|e| format!("{id}: {e}"))?;
    Ok(("categorical: measured against bound per case".into(), svg))
}

fn skipped_note(text: &str, skipped: usize) -> String {
    if skipped == 0 {
        text.to_string()
    } else {
        format!("{text} ({skipped} outcome(s) with a non-finite value not drawn)")
    }
}

fn chunks<T: Clone>(items: &[T]) -> Vec<Vec<T>> {
    items.chunks(MAX_CURVES).map(<[T]>::to_vec).collect()
}

/// The outcomes split by their [`PANELS`] parameters, in first-appearance order.
fn panels<'a>(outcomes: &[&'a Outcome]) -> Vec<(String, Vec<&'a Outcome>)> {
    let keys: Vec<String> = varying(outcomes)
        .into_iter()
        .filter(|k| PANELS.contains(&k.as_str()))
        .collect();
    let mut out: Vec<(String, Vec<&Outcome>)> = Vec::new();
    for o in outcomes {
        let name = label(o, &keys);
        match out.iter_mut().find(|(n, _)| *n == name) {
            Some((_, v)) => v.push(o),
            None => out.push((name, vec![o])),
        }
    }
    out
}

/// The plots of one panel against parameter `x`.
fn natural(
    id: &str,
    x: &str,
    panel: &str,
    outcomes: &[&Outcome],
    plots: &mut Vec<(String, String)>,
) -> Result<(), String> {
    let others: Vec<String> = varying(outcomes)
        .into_iter()
        .filter(|k| k != x && !PANELS.contains(&k.as_str()))
        .collect();
    let keys = distinguishing(outcomes, &[x], &others);
    let mut curves: Vec<(String, Vec<&Outcome>)> = Vec::new();
    for o in outcomes {
        let name = label(o, &keys);
        match curves.iter_mut().find(|(n, _)| *n == name) {
            Some((_, v)) => v.push(o),
            None => curves.push((name, vec![o])),
        }
    }
    let xv = |o: &Outcome| get(o, x).and_then(as_number).unwrap_or(f64::NAN);
    for curves in chunks(&curves) {
        let drawn = curves
            .iter()
            .flat_map(|(_, os)| os.iter())
            .filter(|o| o.measured.mean.is_finite());
        let ys = drawn
            .clone()
            .map(|o| o.measured.mean)
            .chain(drawn.clone().map(|o| o.bound).filter(|b| b.is_finite()));
        let log_x = log_axis(drawn.clone().map(|o| xv(o)));
        let log_y = log_axis(ys.clone()) && ys.clone().all(|y| y > 0.0);
        let skipped = curves
            .iter()
            .flat_map(|(_, os)| os.iter())
            .filter(|o| !o.measured.mean.is_finite())
            .count();
        let single = curves.len() == 1;
        // Markers of different curves at one x are dodged sideways (by 1% of the axis per
        // curve, centred) so that equal values stay visible; lines keep the exact x.
        let (lo_x, hi_x) = drawn
            .clone()
            .map(|o| xv(o))
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
                (a.min(v), b.max(v))
            });
        let dodge = |x: f64, c: usize| {
            let shift = 0.01 * (c as f64 - (curves.len() as f64 - 1.0) / 2.0);
            if single || !(hi_x > lo_x) {
                x
            } else if log_x {
                x * (hi_x / lo_x).powf(shift)
            } else {
                x + shift * (hi_x - lo_x)
            }
        };
        let mut series = Vec::new();
        for (c, (name, os)) in curves.iter().enumerate() {
            let mut os: Vec<&Outcome> = os.clone();
            os.sort_by(|a, b| xv(a).total_cmp(&xv(b)));
            let measured: Vec<Point> = os
                .iter()
                .filter(|o| o.measured.mean.is_finite())
                .map(|o| Point {
                    x: dodge(xv(o), c),
                    y: o.measured.mean,
                    interval: Some(interval(o)),
                })
                .collect();
            let bound_pts = |f: &dyn Fn(&Outcome) -> Option<f64>| -> Vec<Point> {
                os.iter()
                    .filter_map(|o| {
                        f(o).filter(|b| b.is_finite() && (!log_y || *b > 0.0))
                            .map(|b| (o, b))
                    })
                    .map(|(o, b)| Point {
                        x: xv(o),
                        y: b,
                        interval: None,
                    })
                    .collect()
            };
            let bound = bound_pts(&|o| Some(o.bound));
            let line = if bound.len() > 1 {
                Style::Line
            } else {
                Style::Marks
            };
            let relation = os
                .first()
                .map(|o| relation_name(&o.relation))
                .unwrap_or("bound");
            series.push(Series {
                name: if single {
                    "measured".into()
                } else {
                    name.clone()
                },
                points: measured,
                style: Style::Points,
                color: c,
            });
            series.push(Series {
                name: if c == 0 {
                    if single {
                        relation.to_string()
                    } else {
                        format!("{relation}, in each curve's colour")
                    }
                } else {
                    String::new()
                },
                points: bound,
                style: line,
                color: c,
            });
            let lower = bound_pts(&|o| match o.relation {
                Relation::Within { lower, .. } => Some(lower),
                _ => None,
            });
            if !lower.is_empty() {
                series.push(Series {
                    name: if c == 0 {
                        "window lower end".into()
                    } else {
                        String::new()
                    },
                    points: lower,
                    style: if line == Style::Line {
                        Style::Dashed
                    } else {
                        Style::Marks
                    },
                    color: c,
                });
            }
        }
        let mut what = String::new();
        if !panel.is_empty() {
            what.push_str(panel);
        }
        if !keys.is_empty() {
            if !what.is_empty() {
                what.push_str("; ");
            }
            what.push_str(&format!("curves by {}", keys.join(", ")));
        }
        let svg = plot::xy_svg(
            &title(id, &skipped_note(&what, skipped)),
            x,
            "measured (interval) and bound, in the claim's units",
            &series,
            log_x,
            log_y,
        )
        .map_err(|e| format!("{id}: {e}"))?;
        plots.push((
            format!(
                "x: {x}{}, y: measured and bound{}{}",
                if log_x { " (log)" } else { "" },
                if log_y { " (log)" } else { "" },
                if what.is_empty() {
                    String::new()
                } else {
                    format!("; {what}")
                }
            ),
            svg,
        ));
    }
    Ok(())
}

/// The outcome's interval, widened to contain its mean (a one-sided interval has an infinite or
/// equal end, drawn to the frame's edge or as a point).
fn interval(o: &Outcome) -> [f64; 2] {
    let m = &o.measured;
    let lo = if m.lower.is_nan() {
        m.mean
    } else {
        m.lower.min(m.mean)
    };
    let hi = if m.upper.is_nan() {
        m.mean
    } else {
        m.upper.max(m.mean)
    };
    [lo, hi]
}

/// The design points of a slope outcome and its fitted line: $\ln y=a+b\ln x$ with $b$ the
/// measured slope and $a=\overline{\ln\bar y}-b\thinspace\overline{\ln x}$ (the least-squares line the
/// slope estimate fits, [`dpclaims_empirical::stats::log_slope`]).
fn slope_series(o: &Outcome, case: &str, c: usize) -> Vec<Series> {
    let pts: Vec<Point> = o
        .design
        .iter()
        .filter(|p| p.x > 0.0 && p.mean > 0.0 && p.mean.is_finite())
        .map(|p| Point {
            x: p.x,
            y: p.mean,
            interval: Some([p.lower.min(p.mean), p.upper.max(p.mean)]),
        })
        .collect();
    let k = pts.len() as f64;
    let b = o.measured.mean;
    let mut out = Vec::new();
    if pts.len() >= 2 && b.is_finite() {
        let a = pts.iter().map(|p| p.y.ln()).sum::<f64>() / k
            - b * pts.iter().map(|p| p.x.ln()).sum::<f64>() / k;
        let (x0, x1) = pts.iter().fold((f64::INFINITY, 0.0f64), |(l, h), p| {
            (l.min(p.x), h.max(p.x))
        });
        let fit = [x0, x1].map(|x| Point {
            x,
            y: (a + b * x.ln()).exp(),
            interval: None,
        });
        out.push(Series {
            name: format!(
                "{case}: slope {} [{}, {}] {} {}",
                plot::tick(b),
                plot::tick(o.measured.lower),
                plot::tick(o.measured.upper),
                o.relation.symbol(),
                match o.relation {
                    Relation::Within { lower, .. } =>
                        format!("[{}, {}]", plot::tick(lower), plot::tick(o.bound)),
                    _ => plot::tick(o.bound),
                }
            ),
            points: fit
                .into_iter()
                .filter(|p| p.y.is_finite() && p.y > 0.0)
                .collect(),
            style: Style::Dashed,
            color: c,
        });
    }
    out.push(Series {
        name: String::new(),
        points: pts,
        style: Style::Points,
        color: c,
    });
    out
}

/// The measured / bound ratio of `o` as a row (with its interval; ends swapped for a negative
/// bound), or `None` when the ratio is not finite.
pub(crate) fn ratio_row(o: &Outcome, label: String, color: usize) -> Option<Row> {
    let b = o.bound;
    let r = o.measured.mean / b;
    if !(b != 0.0 && r.is_finite()) {
        return None;
    }
    let [lo, hi] = interval(o).map(|v| v / b);
    let (lo, hi) = if b < 0.0 { (hi, lo) } else { (lo, hi) };
    let fix = |v: f64| if v.is_nan() { r } else { v };
    Some(Row {
        label,
        value: r,
        interval: Some([fix(lo).min(r), fix(hi).max(r)]),
        mark: None,
        color,
    })
}

/// The ratio axis of `rows`: from min(0, lowest end) (at least -1) to max(1.2, highest end) (at
/// most 10); ends beyond are drawn at the edge.
pub(crate) fn ratio_range(rows: &[Row]) -> (f64, f64) {
    let ends = || {
        rows.iter()
            .flat_map(|r| {
                r.interval
                    .unwrap_or([r.value, r.value])
                    .into_iter()
                    .chain([r.value])
            })
            .filter(|v| v.is_finite())
    };
    let top = ends().fold(1.2f64, f64::max).min(10.0);
    let bottom = ends().fold(0.0f64, f64::min).max(-1.0);
    (bottom - 0.02 * (top - bottom), top + 0.05 * (top - bottom))
}
