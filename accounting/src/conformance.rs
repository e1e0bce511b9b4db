//! `dpclaims conformance`: a seeded suite of event queries sent to any accountant, judged by
//! metamorphic properties (no reference needed) and against dpclaims' certified PLD bracket.
//!
//! **Protocol** (one line each way per query): the accountant reads an event document
//! ([`EventDoc`], README "Events") with one more field, `"delta"` (asking for ε) or
//! `"epsilon"` (asking for δ), and an `"id"`; it answers `{"epsilon": x}` / `{"delta": x}`
//! (`null` for $+\infty$), `{"error": "unsupported: ..."}` for an event or query it does not
//! support (skipped, not failed), or `{"error": "..."}` (any other text) for a failure on a
//! query it supports: a finding (`broken`), as a crash is. A crash, a hang past the per-query timeout or an unreadable line is a finding
//! (`broken`), not a failure of dpclaims.
//!
//! **Properties**, each over the answers to a few queries:
//! - `self-composition`: $\epsilon(\mathrm{SelfComposed}(e,k))=\epsilon(\mathrm{Composed}(e,\dots,e))$;
//! - `composition-order`: $\epsilon(\mathrm{Composed}(a,b))=\epsilon(\mathrm{Composed}(b,a))$;
//! - `no-op`: $\epsilon(\mathrm{Composed}(e,\mathrm{NoOp}))=\epsilon(e)$;
//! - `poisson-q1`: $\epsilon(\mathrm{PoissonSampled}(e,1))=\epsilon(e)$;
//! - `monotone-count`: $\epsilon$ non-decreasing in the count; `monotone-sigma`: non-increasing in
//!   $\sigma$; `monotone-delta`: non-increasing in $\delta$;
//! - `valid`: $\epsilon\ge0$, not NaN, finite for a Gaussian event;
//! - `epsilon-delta-round-trip`: $\epsilon(\delta(\epsilon_0))=\epsilon_0$ for the accountant's own
//!   $\epsilon_0=\epsilon(\delta)$ (asked in rounds: [`ask_in_rounds`]);
//! - `reference`: the answer at or above dpclaims' optimistic (lower) PLD value — below it the
//!   accountant is `unsound`; within `tolerance` of the pessimistic value `tight`, above it
//!   `loose` (reported with the ratio, not a finding).
//!
//! Equalities hold to a relative `tolerance` (default $10^{-3}$, plus $10^{-9}$ absolute);
//! monotonicity to $10^{-6}$ relative.

use crate::privacy::Neighbouring;
use crate::privacy::event::{Event, EventDoc, FORMAT_VERSION};
use crate::privacy::event_pld::{self, EventPldError};
use crate::privacy::pld::{PldBracket, PldOptions};
use crate::query::Query;
use dpclaims_empirical::rng::{StreamKey, TrialRng};
use rand::RngExt;
use serde::Serialize;
use serde_json::Value;
use std::time::Duration;

/// One query of the suite.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// The event document asked about.
    pub doc: EventDoc,
    /// ε at a δ, or δ at an ε.
    pub query: Query,
}

impl Request {
    /// The protocol line: the event document with `id` and `delta` or `epsilon`.
    pub fn line(&self, id: usize) -> String {
        let mut v = serde_json::to_value(&self.doc).expect("events serialize");
        let obj = v.as_object_mut().expect("a document is an object");
        obj.insert("id".into(), id.into());
        match self.query {
            Query::Epsilon { delta } => obj.insert("delta".into(), delta.into()),
            Query::Delta { epsilon } => obj.insert("epsilon".into(), epsilon.into()),
        };
        v.to_string()
    }

    /// Parses a protocol line back (what an accountant written in Rust reads).
    pub fn parse_line(line: &str) -> Result<(usize, Request), String> {
        let mut v: Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
        let obj = v.as_object_mut().ok_or("a JSON object per line")?;
        let id = obj.remove("id").and_then(|x| x.as_u64()).unwrap_or(0) as usize;
        let query = match (obj.remove("delta"), obj.remove("epsilon")) {
            (Some(d), None) => Query::Epsilon {
                delta: d.as_f64().ok_or("`delta` must be a number")?,
            },
            (None, Some(e)) => Query::Delta {
                epsilon: e.as_f64().ok_or("`epsilon` must be a number")?,
            },
            _ => return Err("exactly one of `delta` and `epsilon`".into()),
        };
        let doc = EventDoc::from_value(&v).map_err(|e| e.to_string())?;
        Ok((id, Request { doc, query }))
    }
}

/// An accountant's reply to one query.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "value")]
pub enum Reply {
    /// The answer ($+\infty$ for `null`).
    Value(f64),
    /// A certified [optimistic, pessimistic] bracket (dpclaims' own accountant, `--self`): its
    /// answer is the pessimistic end, and an equality or inequality between two brackets holds
    /// when the brackets allow it (both contain the true values, which are what the property
    /// speaks of; how far apart two pessimistic ends are is a matter of precision).
    Bracket([f64; 2]),
    /// `{"error": "unsupported: ..."}`: the accountant does not support the event or the query
    /// (skipped).
    Refused(String),
    /// A crash, hang or unreadable answer.
    Broken(String),
}

/// The reply encoded on the protocol's answer line.
pub fn reply_line(query: Query, reply: &Reply) -> String {
    let key = match query {
        Query::Epsilon { .. } => "epsilon",
        Query::Delta { .. } => "delta",
    };
    match reply.value() {
        Some(x) if x.is_finite() => return serde_json::json!({ key: x }).to_string(),
        Some(_) => return serde_json::json!({ key: null }).to_string(),
        None => {}
    }
    match reply {
        Reply::Value(_) | Reply::Bracket(_) => unreachable!("answered above"),
        Reply::Refused(e) if !e.starts_with(UNSUPPORTED) => {
            serde_json::json!({ "error": format!("{UNSUPPORTED}{e}") }).to_string()
        }
        Reply::Refused(e) | Reply::Broken(e) => serde_json::json!({ "error": e }).to_string(),
    }
}

/// The prefix of an `{"error": ...}` answer that means "not supported" (a skip); any other
/// error text is a failure of the accountant on a query it supports.
pub const UNSUPPORTED: &str = "unsupported: ";

fn parse_reply(line: &str, query: Query) -> Reply {
    let key = match query {
        Query::Epsilon { .. } => "epsilon",
        Query::Delta { .. } => "delta",
    };
    let Ok(v) = serde_json::from_str::<Value>(line) else {
        return Reply::Broken(format!("unreadable answer {line:?}"));
    };
    if let Some(e) = v.get("error") {
        let text = e.as_str().map(str::to_string).unwrap_or_else(|| e.to_string());
        return if text.starts_with(UNSUPPORTED) {
            Reply::Refused(text)
        } else {
            Reply::Broken(format!("the accountant answered an error: {text}"))
        };
    }
    match v.get(key) {
        Some(Value::Null) => Reply::Value(f64::INFINITY),
        Some(x) => x
            .as_f64()
            .map(Reply::Value)
            .unwrap_or_else(|| Reply::Broken(format!("`{key}` is not a number in {line:?}"))),
        None => Reply::Broken(format!("no `{key}` in {line:?}")),
    }
}

impl Reply {
    /// The answer: the value, or a bracket's pessimistic end.
    pub fn value(&self) -> Option<f64> {
        match self {
            Reply::Value(x) => Some(*x),
            Reply::Bracket([_, hi]) => Some(*hi),
            _ => None,
        }
    }

    /// The interval the true answer lies in: a bracket, or a value as a point.
    fn interval(&self) -> Option<[f64; 2]> {
        match self {
            Reply::Value(x) => Some([*x, *x]),
            Reply::Bracket(b) => Some(*b),
            _ => None,
        }
    }
}

/// dpclaims' own PLD accountant, in process: its certified bracket.
pub fn self_reply(req: &Request, opts: &PldOptions) -> Reply {
    match bracket(req, opts) {
        Ok(b) => Reply::Bracket([b.optimistic, b.pessimistic]),
        Err(e) => Reply::Refused(e.to_string()),
    }
}

fn bracket(req: &Request, opts: &PldOptions) -> Result<PldBracket, EventPldError> {
    match req.query {
        Query::Epsilon { delta } => event_pld::epsilon(&req.doc, delta, opts),
        Query::Delta { epsilon } => event_pld::delta(&req.doc, epsilon, opts),
    }
}

/// Sends every request to `sh -c command` and collects one reply per request, through
/// [`crate::line_protocol`]: a hang past `timeout` or a crash is a `Broken` reply to that
/// request, and the command is started again on the ones after it.
pub fn ask_command(command: &str, requests: &[Request], timeout: Duration) -> Vec<Reply> {
    let lines: Vec<String> = requests
        .iter()
        .enumerate()
        .map(|(i, r)| r.line(i))
        .collect();
    crate::line_protocol::ask_lines(command, &lines, timeout, false)
        .into_iter()
        .zip(requests)
        .map(|(answer, r)| match answer {
            Ok(line) => parse_reply(&line, r.query),
            Err(why) => Reply::Broken(why),
        })
        .collect()
}

/// Asks every request of the suite through `ask` (a batch of requests in, one reply each out),
/// in rounds: first those that depend on nothing, then each follow-up once the answer it
/// depends on is known, with that answer as its parameter (written into `suite.requests`, so
/// the reproducers show it). A follow-up of a refused, broken or unusable answer (not finite,
/// or a δ outside (0, 1)) is not asked: it is refused, and its check skipped.
pub fn ask_in_rounds(
    suite: &mut Suite,
    mut ask: impl FnMut(&[Request]) -> Vec<Reply>,
) -> Vec<Reply> {
    let n = suite.requests.len();
    let source = |i: usize| {
        suite
            .follow_ups
            .iter()
            .find(|f| f.request == i)
            .map(|f| f.from)
    };
    let sources: Vec<Option<usize>> = (0..n).map(source).collect();
    let mut replies: Vec<Option<Reply>> = vec![None; n];
    loop {
        let ready: Vec<usize> = (0..n)
            .filter(|&i| replies[i].is_none() && sources[i].is_none_or(|j| replies[j].is_some()))
            .collect();
        if ready.is_empty() {
            break;
        }
        let mut asked = Vec::new();
        for i in ready {
            let Some(j) = sources[i] else {
                asked.push(i);
                continue;
            };
            let r = &mut suite.requests[i];
            let answer = replies[j].as_ref().and_then(Reply::value);
            match (answer, &mut r.query) {
                (Some(x), Query::Delta { epsilon }) if x.is_finite() && x >= 0.0 => {
                    *epsilon = x;
                    asked.push(i);
                }
                (Some(x), Query::Epsilon { delta }) if x > 0.0 && x < 1.0 => {
                    *delta = x;
                    asked.push(i);
                }
                (answer, _) => {
                    let why = match answer {
                        Some(x) => format!("it follows up on the answer {x}"),
                        _ => "the query it follows up on has no answer".into(),
                    };
                    replies[i] = Some(Reply::Refused(format!("not asked: {why}")));
                }
            }
        }
        let batch: Vec<Request> = asked.iter().map(|&i| suite.requests[i].clone()).collect();
        let got = if batch.is_empty() {
            Vec::new()
        } else {
            ask(&batch)
        };
        for (i, r) in asked.into_iter().zip(got) {
            replies[i] = Some(r);
        }
    }
    replies
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Reply::Broken("no reply".into())))
        .collect()
}

/// How the answers of a check's queries must relate.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Relation {
    /// The two answers agree (to the tolerance).
    Equal,
    /// The first is at most the second.
    AtMost,
    /// One answer, valid (>= 0, not NaN; finite where `finite`).
    Valid {
        /// The answer must also be finite (a Gaussian event).
        finite: bool,
    },
    /// One answer, compared with dpclaims' bracket.
    Reference,
}

/// One property instance: queries (indices into the suite's requests) and their relation.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    /// The property's name, e.g. `self-composition` (module documentation).
    pub property: &'static str,
    /// `ordinary` or `extreme` (small σ, q or δ, or many steps).
    pub regime: &'static str,
    /// Indices into [`Suite::requests`], in the order the relation reads them.
    pub queries: Vec<usize>,
    /// How their answers must relate.
    pub relation: Relation,
}

/// A request whose parameter (`epsilon` of a δ query, `delta` of an ε query) is the answer to
/// an earlier one, `from`: it is asked in a later round.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FollowUp {
    /// The later request (index into [`Suite::requests`]).
    pub request: usize,
    /// The request whose answer becomes its parameter.
    pub from: usize,
}

/// The requests and checks of a suite.
#[derive(Debug, Clone, Default)]
pub struct Suite {
    /// The queries, each sent once (protocol `id` = index).
    pub requests: Vec<Request>,
    /// The property instances over them.
    pub checks: Vec<Check>,
    /// Requests asked after the answers they depend on.
    pub follow_ups: Vec<FollowUp>,
}

impl Suite {
    fn push(&mut self, doc: EventDoc, query: Query) -> usize {
        self.requests.push(Request { doc, query });
        self.requests.len() - 1
    }

    fn check(
        &mut self,
        property: &'static str,
        regime: &'static str,
        queries: Vec<usize>,
        relation: Relation,
    ) {
        self.checks.push(Check {
            property,
            regime,
            queries,
            relation,
        });
    }
}

fn doc(neighbouring: Neighbouring, event: Event) -> EventDoc {
    EventDoc {
        version: FORMAT_VERSION,
        neighbouring,
        event,
    }
}

fn self_composed(event: Event, count: u64) -> Event {
    Event::SelfComposed {
        event: Box::new(event),
        count,
    }
}

fn log_uniform(rng: &mut TrialRng, lo: f64, hi: f64) -> f64 {
    (lo.ln() + rng.random::<f64>() * (hi.ln() - lo.ln())).exp()
}

/// A seeded suite of `n` base events (each giving ten checks or so). `full` widens the regimes
/// to σ down to 0.3, q down to 1e-6, T up to 10^5 and δ down to 1e-12.
pub fn generate(seed: u64, n: usize, full: bool) -> Suite {
    let key = StreamKey::new(seed, &["conformance"]);
    let mut s = Suite::default();
    for i in 0..n {
        let mut rng = key.trial(i as u64);
        let (sigma_lo, q_lo, t_hi, delta_lo) = if full {
            (0.3, 1e-6, 1e5, 1e-12)
        } else {
            (0.7, 1e-3, 300.0, 1e-8)
        };
        let sigma = log_uniform(&mut rng, sigma_lo, 10.0);
        let q = log_uniform(&mut rng, q_lo, 0.5);
        let steps = log_uniform(&mut rng, 1.0, t_hi).round().max(1.0) as u64;
        let delta = log_uniform(&mut rng, delta_lo, 1e-3);
        let extreme = sigma < 0.7 || q < 1e-4 || steps > 10_000 || delta < 1e-9;
        let regime = if extreme { "extreme" } else { "ordinary" };
        // The family of the unit event, and its relation.
        let gaussian = |s: f64| Event::Gaussian {
            noise_multiplier: s,
        };
        let (relation, unit, sigma_variant): (Neighbouring, Event, Option<Event>) = match i % 7 {
            0 | 1 => (
                if i % 2 == 0 {
                    Neighbouring::AddRemove
                } else {
                    Neighbouring::ReplaceOne
                },
                Event::PoissonSampled {
                    sampling_probability: q,
                    event: Box::new(gaussian(sigma)),
                },
                Some(Event::PoissonSampled {
                    sampling_probability: q,
                    event: Box::new(gaussian(2.0 * sigma)),
                }),
            ),
            2 => (
                Neighbouring::AddRemove,
                Event::PoissonSampled {
                    sampling_probability: q,
                    event: Box::new(Event::Laplace {
                        noise_multiplier: sigma,
                    }),
                },
                None,
            ),
            3 => (
                Neighbouring::ReplaceOne,
                Event::RandomizedResponse {
                    noise_parameter: rng.random::<f64>().max(0.05),
                    num_buckets: rng.random_range(2..8),
                },
                None,
            ),
            4 => (
                Neighbouring::AddRemove,
                Event::EpsilonDelta {
                    epsilon: log_uniform(&mut rng, 1e-3, 1.0),
                    delta: log_uniform(&mut rng, 1e-12, 1e-6),
                },
                None,
            ),
            5 => (
                Neighbouring::AddRemove,
                gaussian(sigma * 10.0),
                Some(gaussian(sigma * 20.0)),
            ),
            _ => {
                // Fixed-size batches: m of n without replacement, q = m / n (replace-one).
                let n = 10_000;
                let m = ((q * n as f64).round() as u64).clamp(1, n - 1);
                let swor = |s: f64| Event::SampledWithoutReplacement {
                    source_dataset_size: n,
                    sample_size: m,
                    event: Box::new(gaussian(s)),
                };
                (
                    Neighbouring::ReplaceOne,
                    swor(sigma),
                    Some(swor(2.0 * sigma)),
                )
            }
        };
        // Randomized response and (eps, delta) compose linearly: keep their counts small.
        let steps = if matches!(
            unit,
            Event::RandomizedResponse { .. } | Event::EpsilonDelta { .. }
        ) {
            steps.min(20)
        } else {
            steps
        };
        let base = self_composed(unit.clone(), steps);
        let eps_q = Query::Epsilon { delta };
        let b = s.push(doc(relation, base.clone()), eps_q);
        s.check(
            "valid",
            regime,
            vec![b],
            Relation::Valid {
                finite: sigma_variant.is_some(),
            },
        );
        s.check("reference", regime, vec![b], Relation::Reference);
        // delta at the answered epsilon, then epsilon at that delta (parameters set in rounds).
        let d_at = s.push(
            doc(relation, base.clone()),
            Query::Delta { epsilon: f64::NAN },
        );
        let e_at = s.push(
            doc(relation, base.clone()),
            Query::Epsilon { delta: f64::NAN },
        );
        s.follow_ups.push(FollowUp {
            request: d_at,
            from: b,
        });
        s.follow_ups.push(FollowUp {
            request: e_at,
            from: d_at,
        });
        s.check(
            "epsilon-delta-round-trip",
            regime,
            vec![e_at, b, d_at],
            Relation::Equal,
        );
        // SelfComposed(unit, k) against k copies one by one.
        let k = 2 + (i as u64 % 4);
        let sc = s.push(doc(relation, self_composed(unit.clone(), k)), eps_q);
        let copies = s.push(
            doc(
                relation,
                Event::Composed {
                    events: vec![unit.clone(); k as usize],
                },
            ),
            eps_q,
        );
        s.check(
            "self-composition",
            regime,
            vec![sc, copies],
            Relation::Equal,
        );
        let doubled = s.push(doc(relation, self_composed(unit.clone(), 2 * steps)), eps_q);
        s.check("monotone-count", regime, vec![b, doubled], Relation::AtMost);
        let noop = s.push(
            doc(
                relation,
                Event::Composed {
                    events: vec![base.clone(), Event::NoOp],
                },
            ),
            eps_q,
        );
        s.check("no-op", regime, vec![noop, b], Relation::Equal);
        let q1 = s.push(
            doc(
                relation,
                Event::PoissonSampled {
                    sampling_probability: 1.0,
                    event: Box::new(base.clone()),
                },
            ),
            eps_q,
        );
        s.check("poisson-q1", regime, vec![q1, b], Relation::Equal);
        let looser = s.push(
            doc(relation, base.clone()),
            Query::Epsilon {
                delta: (delta * 10.0).min(0.5),
            },
        );
        s.check("monotone-delta", regime, vec![looser, b], Relation::AtMost);
        let other = Event::EpsilonDelta {
            epsilon: 0.05,
            delta: 1e-9,
        };
        let ab = s.push(
            doc(
                relation,
                Event::Composed {
                    events: vec![base.clone(), other.clone()],
                },
            ),
            eps_q,
        );
        let ba = s.push(
            doc(
                relation,
                Event::Composed {
                    events: vec![other, base.clone()],
                },
            ),
            eps_q,
        );
        s.check("composition-order", regime, vec![ab, ba], Relation::Equal);
        if let Some(v) = sigma_variant {
            let noisier = s.push(doc(relation, self_composed(v, steps)), eps_q);
            s.check("monotone-sigma", regime, vec![noisier, b], Relation::AtMost);
        }
    }
    s
}

/// The outcome of one check.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The property holds (for `reference`: within the bracket, or above it by at most the
    /// tolerance).
    Pass,
    /// Some query was refused by the accountant.
    Skipped,
    /// `reference` only: above the certified upper value by more than the tolerance.
    Loose,
    /// The property does not hold (for `reference`: below the certified lower value).
    Finding,
    /// The accountant crashed, hung or answered garbage.
    Broken,
}

/// A check's result: verdict, the numbers, and what to run to see it again.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outcome {
    /// The check's property ([`Check::property`]).
    pub property: &'static str,
    /// The check's regime ([`Check::regime`]).
    pub regime: &'static str,
    /// The verdict.
    pub verdict: Verdict,
    /// The accountant's answers, one per query (`None`: refused or broken).
    pub answers: Vec<Option<f64>>,
    /// `reference`: dpclaims' [optimistic, pessimistic].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bracket: Option<[f64; 2]>,
    /// The comparison made, or why the check was skipped or broken, in words.
    pub detail: String,
    /// The protocol lines of the check's queries.
    pub queries: Vec<String>,
}

/// Judges the replies (one per request) against every check.
pub fn judge(suite: &Suite, replies: &[Reply], tolerance: f64, opts: &PldOptions) -> Vec<Outcome> {
    suite
        .checks
        .iter()
        .map(|c| {
            let rs: Vec<&Reply> = c.queries.iter().map(|&i| &replies[i]).collect();
            let answers: Vec<Option<f64>> = rs.iter().map(|r| r.value()).collect();
            let intervals: Vec<[f64; 2]> = rs
                .iter()
                .map(|r| r.interval().unwrap_or([f64::NAN; 2]))
                .collect();
            let queries = c
                .queries
                .iter()
                .map(|&i| suite.requests[i].line(i))
                .collect();
            let mut out = Outcome {
                property: c.property,
                regime: c.regime,
                verdict: Verdict::Pass,
                answers: answers.clone(),
                bracket: None,
                detail: String::new(),
                queries,
            };
            if let Some(Reply::Broken(why)) = rs.iter().find(|r| matches!(r, Reply::Broken(_))) {
                out.verdict = Verdict::Broken;
                out.detail = why.clone();
                return out;
            }
            if let Some(Reply::Refused(why)) = rs.iter().find(|r| matches!(r, Reply::Refused(_))) {
                out.verdict = Verdict::Skipped;
                out.detail = why.clone();
                return out;
            }
            let v: Vec<f64> = answers.iter().map(|a| a.unwrap_or(f64::NAN)).collect();
            let (verdict, detail) = match c.relation {
                Relation::Equal => {
                    // Two points agree to the tolerance; brackets (or a bracket and a point)
                    // agree when they meet once each is widened by it.
                    let [a, b] = [intervals[0], intervals[1]];
                    let slack = tolerance * v[0].abs().max(v[1].abs()) + 1e-9;
                    // An infinite answer (or bracket end) meets only an equal one: the slack
                    // would otherwise be infinite and the check could not fail.
                    let finite = a.iter().chain(&b).all(|x| x.is_finite());
                    let ok =
                        v[0] == v[1] || (finite && a[0] <= b[1] + slack && b[0] <= a[1] + slack);
                    let show = |i: usize| match rs[i] {
                        Reply::Bracket([lo, hi]) => format!("{hi} (bracket [{lo}, {hi}])"),
                        _ => v[i].to_string(),
                    };
                    (
                        ok,
                        format!(
                            "{} vs {} (relative tolerance {tolerance})",
                            show(0),
                            show(1)
                        ),
                    )
                }
                // The slack is relative to the size of the bound: `b * (1 + 1e-6)` would be
                // stricter than `b` for a negative answer (-1 <= -1 was a finding), and
                // `b + 1e-6 |b|` is NaN at b = -inf (hence the plain comparison first).
                Relation::AtMost => (
                    intervals[0][0] <= intervals[1][1]
                        || intervals[0][0]
                            <= intervals[1][1] + 1e-6 * intervals[1][1].abs() + 1e-12,
                    format!("{} should be at most {}", v[0], v[1]),
                ),
                Relation::Valid { finite } => (
                    v[0] >= 0.0 && (!finite || v[0].is_finite()),
                    format!(
                        "{} should be >= 0{}",
                        v[0],
                        if finite { " and finite" } else { "" }
                    ),
                ),
                Relation::Reference => {
                    let req = &suite.requests[c.queries[0]];
                    match bracket(req, opts) {
                        Err(e) => {
                            out.verdict = Verdict::Skipped;
                            out.detail = format!("no reference: {e}");
                            return out;
                        }
                        Ok(b) => {
                            out.bracket = Some([b.optimistic, b.pessimistic]);
                            let below = v[0] < b.optimistic * (1.0 - 1e-9);
                            if !below && v[0] > b.pessimistic * (1.0 + tolerance) + 1e-9 {
                                out.verdict = Verdict::Loose;
                                out.detail = format!(
                                    "ratio {:.4} to the certified upper value",
                                    v[0] / b.pessimistic
                                );
                                return out;
                            }
                            let inverted = b.optimistic > b.pessimistic;
                            let detail = if inverted {
                                format!(
                                    "dpclaims' own bracket is inverted: [{}, {}]",
                                    b.optimistic, b.pessimistic
                                )
                            } else {
                                format!("{} against [{}, {}]", v[0], b.optimistic, b.pessimistic)
                            };
                            (!below, detail)
                        }
                    }
                }
            };
            if !verdict {
                out.verdict = Verdict::Finding;
            }
            out.detail = detail;
            out
        })
        .collect()
}

/// A scorecard row: counts per property and regime.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Score {
    /// The property.
    pub property: String,
    /// The regime.
    pub regime: String,
    /// Checks that passed.
    pub pass: usize,
    /// Checks skipped (a query refused, or no reference).
    pub skipped: usize,
    /// `reference` checks above the certified upper value by more than the tolerance.
    pub loose: usize,
    /// Checks whose property does not hold.
    pub findings: usize,
    /// Checks with a crashed, hung or unreadable answer.
    pub broken: usize,
}

/// Counts per (property, regime), in the order first seen.
pub fn scorecard(outcomes: &[Outcome]) -> Vec<Score> {
    let mut rows: Vec<Score> = Vec::new();
    for o in outcomes {
        let i = match rows
            .iter()
            .position(|r| r.property == o.property && r.regime == o.regime)
        {
            Some(i) => i,
            None => {
                rows.push(Score {
                    property: o.property.into(),
                    regime: o.regime.into(),
                    ..Score::default()
                });
                rows.len() - 1
            }
        };
        let r = &mut rows[i];
        match o.verdict {
            Verdict::Pass => r.pass += 1,
            Verdict::Skipped => r.skipped += 1,
            Verdict::Loose => r.loose += 1,
            Verdict::Finding => r.findings += 1,
            Verdict::Broken => r.broken += 1,
        }
    }
    rows
}

/// The scorecard and every finding as text (Markdown with `markdown`); `command` goes into the
/// reproducers.
pub fn render(outcomes: &[Outcome], command: &str, markdown: bool) -> String {
    let mut s = render_scorecard(outcomes, markdown);
    for o in outcomes
        .iter()
        .filter(|o| matches!(o.verdict, Verdict::Finding | Verdict::Broken))
    {
        s += &format!(
            "\n{:?} {} ({}): {}\n",
            o.verdict, o.property, o.regime, o.detail
        );
        for q in &o.queries {
            s += &format!("  reproduce: echo '{q}' | {command}\n");
        }
    }
    s
}

/// The scorecard alone: counts per property and regime, as text (Markdown with `markdown`).
pub fn render_scorecard(outcomes: &[Outcome], markdown: bool) -> String {
    let rows = scorecard(outcomes);
    let mut s = String::new();
    let header = [
        "property", "regime", "pass", "skipped", "loose", "findings", "broken",
    ];
    let cells = |r: &Score| {
        vec![
            r.property.clone(),
            r.regime.clone(),
            r.pass.to_string(),
            r.skipped.to_string(),
            r.loose.to_string(),
            r.findings.to_string(),
            r.broken.to_string(),
        ]
    };
    if markdown {
        s += &format!(
            "| {} |\n|{}\n",
            header.join(" | "),
            "---|".repeat(header.len())
        );
        for r in &rows {
            s += &format!("| {} |\n", cells(r).join(" | "));
        }
    } else {
        s += &format!(
            "{:<18} {:<9} {:>6} {:>8} {:>6} {:>9} {:>7}\n",
            header[0], header[1], header[2], header[3], header[4], header[5], header[6]
        );
        for r in &rows {
            let c = cells(r);
            s += &format!(
                "{:<18} {:<9} {:>6} {:>8} {:>6} {:>9} {:>7}\n",
                c[0], c[1], c[2], c[3], c[4], c[5], c[6]
            );
        }
    }
    s
}

/// Whether the run found anything (exit code 1).
pub fn failed(outcomes: &[Outcome]) -> bool {
    outcomes
        .iter()
        .any(|o| matches!(o.verdict, Verdict::Finding | Verdict::Broken))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protocol_lines_round_trip() {
        let suite = generate(3, 6, false);
        for (i, r) in suite.requests.iter().enumerate() {
            if suite.follow_ups.iter().any(|f| f.request == i) {
                continue; // its parameter is set when it is asked
            }
            let (id, back) = Request::parse_line(&r.line(i)).unwrap();
            assert_eq!((id, &back), (i, r));
        }
        let q = Query::Epsilon { delta: 1e-5 };
        assert_eq!(
            parse_reply(&reply_line(q, &Reply::Value(1.5)), q),
            Reply::Value(1.5)
        );
        assert_eq!(
            parse_reply(&reply_line(q, &Reply::Value(f64::INFINITY)), q),
            Reply::Value(f64::INFINITY)
        );
        assert!(matches!(parse_reply("{\"eps\": 1}", q), Reply::Broken(_)));
        assert!(matches!(
            parse_reply("{\"error\": \"unsupported: no\"}", q),
            Reply::Refused(_)
        ));
        // Any other error is a failure of the accountant on a query it supports.
        assert!(matches!(
            parse_reply("{\"error\": \"ZeroDivisionError: x\"}", q),
            Reply::Broken(_)
        ));
        // dpclaims' own refusal goes out as "unsupported" and comes back a skip.
        let refused = Reply::Refused("`event`: not covered".into());
        assert!(matches!(
            parse_reply(&reply_line(q, &refused), q),
            Reply::Refused(_)
        ));
    }

    /// An inequality between two equal answers holds whatever their sign (the slack once made
    /// `-1 <= -1` a finding: a negative answer is `valid`'s finding, not every property's).
    #[test]
    fn equal_answers_satisfy_at_most_at_any_sign() {
        let suite = generate(5, 6, false);
        let c = suite
            .checks
            .iter()
            .find(|c| c.relation == Relation::AtMost)
            .unwrap()
            .clone();
        let one = Suite {
            requests: suite.requests.clone(),
            checks: vec![c.clone()],
            follow_ups: suite.follow_ups.clone(),
        };
        for x in [f64::NEG_INFINITY, -1.0, 0.0, 2.5, f64::INFINITY] {
            let replies = vec![Reply::Value(x); suite.requests.len()];
            let o = &judge(&one, &replies, 1e-3, &PldOptions::default())[0];
            assert_eq!(o.verdict, Verdict::Pass, "{x}: {o:?}");
        }
    }

    /// Each relation can fail: a reply set that breaks it is a finding.
    #[test]
    fn checks_can_fail() {
        let suite = generate(5, 6, false);
        let opts = PldOptions {
            interval: 1e-3,
            ..PldOptions::default()
        };
        // Everything answers 1.0 except the first query of each check, which answers 2.0 (or -1
        // for validity, 0 for the reference).
        for c in &suite.checks {
            let mut replies = vec![Reply::Value(1.0); suite.requests.len()];
            replies[c.queries[0]] = Reply::Value(match c.relation {
                Relation::Valid { .. } => -1.0,
                Relation::Reference => 0.0,
                _ => 2.0,
            });
            let one = Suite {
                requests: suite.requests.clone(),
                checks: vec![c.clone()],
                follow_ups: suite.follow_ups.clone(),
            };
            let o = &judge(&one, &replies, 1e-3, &opts)[0];
            assert_eq!(o.verdict, Verdict::Finding, "{} {:?}", c.property, o);
        }
    }

    /// Brackets (`--self`) agree when they meet: the measured case of `--self --full`, where
    /// SelfComposed(PoissonSampled(Gaussian), 4) and its four copies composed one by one give
    /// the pessimistic ends 0.104605 and 0.109464 (4.6 % apart) in the brackets
    /// [0.100574, 0.104605] and [0.095319, 0.109464]. Disjoint brackets are a finding, and
    /// so is an inequality whose brackets cannot hold it.
    #[test]
    fn brackets_agree_when_they_meet() {
        let suite = generate(5, 6, false);
        let opts = PldOptions::default();
        let pick = |rel: fn(&Relation) -> bool| {
            suite
                .checks
                .iter()
                .find(|c| rel(&c.relation))
                .unwrap()
                .clone()
        };
        for (c, meet, apart) in [
            (
                pick(|r| matches!(r, Relation::Equal)),
                [[0.100574, 0.104605], [0.095319, 0.109464]],
                [[0.100574, 0.104605], [0.106, 0.109464]],
            ),
            (
                pick(|r| matches!(r, Relation::AtMost)),
                [[0.2, 0.3], [0.1, 0.25]],
                [[0.2, 0.3], [0.1, 0.15]],
            ),
        ] {
            let one = Suite {
                requests: suite.requests.clone(),
                checks: vec![c.clone()],
                follow_ups: suite.follow_ups.clone(),
            };
            for (pair, want) in [(meet, Verdict::Pass), (apart, Verdict::Finding)] {
                let mut replies = vec![Reply::Value(1.0); suite.requests.len()];
                replies[c.queries[0]] = Reply::Bracket(pair[0]);
                replies[c.queries[1]] = Reply::Bracket(pair[1]);
                let o = &judge(&one, &replies, 1e-3, &opts)[0];
                assert_eq!(o.verdict, want, "{:?} {pair:?}: {o:?}", c.relation);
            }
        }
        // An infinite answer meets only an infinite one (the slack would be infinite).
        let c = pick(|r| matches!(r, Relation::Equal));
        let one = Suite {
            requests: suite.requests.clone(),
            checks: vec![c.clone()],
            follow_ups: suite.follow_ups.clone(),
        };
        for (x, want) in [(f64::INFINITY, Verdict::Finding), (1.0, Verdict::Pass)] {
            let mut replies = vec![Reply::Value(1.0); suite.requests.len()];
            replies[c.queries[0]] = Reply::Value(x);
            let o = &judge(&one, &replies, 1e-3, &opts)[0];
            assert_eq!(o.verdict, want, "{x}: {o:?}");
        }
    }
}
