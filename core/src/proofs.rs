//! Proof maps: for each result of a paper, the ordered steps of its proof, each a claim (with a
//! verdict once run) or a reason why it is not checkable. A map is data ([`ProofMap`]);
//! [`run`] checks the step claims of the selected maps through the ordinary harness (one run,
//! one Bonferroni family), and [`text`], [`markdown`] and [`json`] render the result with a
//! summary per paper. `dpclaims proofs` and the report's "Proofs" section use them.
//!
//! A step whose printed form fails is a `known_false` claim, with the corrected step beside it
//! ([`Check::Claim::corrected`]); its evidence is in THEOREMS_NOTES.md.

use crate::claim::{Claim, glob_match};
use crate::harness::{self, CheckOptions};
use crate::prove::{Budget, ProofVerdict};
use crate::verdict::{Outcome, Verdict};
use serde::Serialize;

/// How one proof step is checked.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Check {
    /// A claim checks the step as printed; `corrected` names the claim of the corrected step
    /// where the printed one fails.
    Claim {
        /// The step's claim id.
        id: &'static str,
        /// The corrected step's claim id, if the printed step is known false.
        corrected: Option<&'static str>,
    },
    /// The step is the result's statement itself (or the consequence of a cited result that the
    /// statement rests on), checked by the statement claim `id` (run by `dpclaims proofs` with the
    /// step claims): the step's verdict is that claim's.
    Statement {
        /// The statement claim's id.
        id: &'static str,
        /// What of the step the claim checks.
        reason: &'static str,
    },
    /// A definition, a hypothesis, a construction or a choice made by the proof: nothing is
    /// asserted, so nothing is to check. Counted apart, not in the not-checkable share.
    Definition {
        /// What is defined, assumed or chosen.
        reason: &'static str,
    },
    /// The step asserts something that cannot be checked numerically here (a cited result used
    /// as a black box, a theorem about all laws, a statement not in our copy, ...): the reason.
    NotCheckable {
        /// Why.
        reason: &'static str,
    },
}

impl Check {
    /// The claims whose outcomes judge the step: its claim and corrected claim, or its
    /// statement claim; none for a definition or a not-checkable step.
    pub fn claims(&self) -> impl Iterator<Item = &'static str> {
        let (a, b) = match *self {
            Check::Claim { id, corrected } => (Some(id), corrected),
            Check::Statement { id, .. } => (Some(id), None),
            Check::Definition { .. } | Check::NotCheckable { .. } => (None, None),
        };
        a.into_iter().chain(b)
    }
}

/// One step of a proof, in the order of the proof.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Step {
    /// The step as printed (or its gist), with where it sits in the proof.
    pub text: &'static str,
    /// How it is checked.
    pub check: Check,
}

/// The proof of one result: its steps in order.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct ProofMap {
    /// `<topic>.<result>`, e.g. `multipass.lemma4`; step `k` is `<id>.step.<k>`.
    pub id: &'static str,
    /// Source paper file.
    pub paper: &'static str,
    /// The result (theorem, lemma, ...) and where its proof is.
    pub result: &'static str,
    /// Its hypotheses, as printed and as the proof uses them.
    pub hypotheses: &'static str,
    /// Claims that check the result's statement itself (not run by `proofs`).
    pub statement_claims: &'static [&'static str],
    /// The proof's steps, in order.
    pub steps: &'static [Step],
}

/// The verdict of a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StepStatus {
    /// Every outcome of its claim respected.
    Held,
    /// Some outcome violated (the printed step is false there).
    Failed,
    /// Neither: some outcome inconclusive.
    Inconclusive,
    /// Marked not checkable.
    NotCheckable,
    /// A definition, hypothesis, construction or choice (nothing to check).
    Definition,
    /// Its claim is not in the run's claim set (e.g. an outside binary without it).
    NotRun,
}

impl StepStatus {
    /// `held`, `failed`, `inconclusive`, `not-checkable`, `definition` or `not-run`.
    pub fn as_str(self) -> &'static str {
        match self {
            StepStatus::Held => "held",
            StepStatus::Failed => "failed",
            StepStatus::Inconclusive => "inconclusive",
            StepStatus::NotCheckable => "not-checkable",
            StepStatus::Definition => "definition",
            StepStatus::NotRun => "not-run",
        }
    }
}

/// One step with its verdict.
#[derive(Debug, Clone, Serialize)]
pub struct StepResult {
    /// `<map id>.step.<k>`.
    pub step: String,
    /// The step as printed.
    pub text: &'static str,
    /// How it is checked.
    pub check: Check,
    /// Its verdict.
    pub status: StepStatus,
    /// Outcomes of its claim in the run.
    pub outcomes: usize,
    /// The largest measured/bound ratio among its claim's outcomes (how tight the step is).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_tightness: Option<f64>,
    /// The corrected step's verdict, where there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub corrected_status: Option<StepStatus>,
    /// The step's claim is registered known false as printed (its failure is expected).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub known_false: bool,
    /// Its claim decided on its whole box ([`prove_steps`]), where it has a closed form.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub on_box: Option<BoxProof>,
    /// The corrected step's claim decided on its whole box, where it has a closed form.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub corrected_on_box: Option<BoxProof>,
}

/// A step claim decided on its box: the verdict, and the share of the volume left undecided.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct BoxProof {
    /// `proved`, `refuted` or `undecided`.
    pub verdict: ProofVerdict,
    /// Share of the box's volume left (0 when proved).
    pub undecided_share: f64,
}

impl BoxProof {
    fn label(&self) -> String {
        match self.verdict {
            ProofVerdict::Undecided => format!(
                "undecided on the box ({:.2}% of its volume left)",
                100.0 * self.undecided_share
            ),
            v => format!("{} on the box", v.as_str()),
        }
    }
}

impl StepResult {
    /// A failure nobody expected: the step's claim (not known false) or its corrected claim failed.
    pub fn unexpected(&self) -> bool {
        (self.status == StepStatus::Failed && !self.known_false)
            || self.corrected_status == Some(StepStatus::Failed)
    }
}

/// Counts of a map or a paper.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Steps.
    pub steps: usize,
    /// Steps that are claims (step claims and statement claims).
    pub checked: usize,
    /// Of those, steps checked by the result's statement claim ([`Check::Statement`]).
    #[serde(skip_serializing_if = "is_zero")]
    pub by_statement: usize,
    /// Steps that are definitions, hypotheses, constructions or choices (nothing to check; not
    /// in the not-checkable share).
    #[serde(skip_serializing_if = "is_zero")]
    pub definitions: usize,
    /// Claims all of whose outcomes were respected.
    pub held: usize,
    /// Claims with a violated outcome.
    pub failed: usize,
    /// Claims neither held nor failed (or not in the run).
    pub inconclusive: usize,
    /// Steps marked not checkable.
    pub not_checkable: usize,
    /// Steps whose claim is proved on its whole box (counted in `held` too; only when
    /// [`prove_steps`] ran).
    #[serde(skip_serializing_if = "is_zero")]
    pub proved: usize,
    /// Steps whose claim is refuted on its whole box (counted in `failed` too).
    #[serde(skip_serializing_if = "is_zero")]
    pub refuted: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Summary {
    fn add(&mut self, s: StepStatus) {
        self.steps += 1;
        match s {
            StepStatus::NotCheckable => self.not_checkable += 1,
            StepStatus::Definition => self.definitions += 1,
            StepStatus::Held => {
                self.checked += 1;
                self.held += 1
            }
            StepStatus::Failed => {
                self.checked += 1;
                self.failed += 1
            }
            StepStatus::Inconclusive | StepStatus::NotRun => {
                self.checked += 1;
                self.inconclusive += 1
            }
        }
    }
    fn merge(&mut self, o: &Summary) {
        self.steps += o.steps;
        self.checked += o.checked;
        self.by_statement += o.by_statement;
        self.definitions += o.definitions;
        self.held += o.held;
        self.failed += o.failed;
        self.inconclusive += o.inconclusive;
        self.not_checkable += o.not_checkable;
        self.proved += o.proved;
        self.refuted += o.refuted;
    }
}

/// One map with its verdicts.
#[derive(Debug, Clone, Serialize)]
pub struct MapResult {
    /// The map.
    #[serde(flatten)]
    pub map: ProofMap,
    /// Its steps' verdicts, in order.
    pub results: Vec<StepResult>,
    /// Its counts.
    pub summary: Summary,
}

/// The counts of one paper.
#[derive(Debug, Clone, Serialize)]
pub struct PaperSummary {
    /// The paper file.
    pub paper: &'static str,
    /// Maps of the paper in the selection.
    pub maps: usize,
    /// Their counts, summed.
    #[serde(flatten)]
    pub summary: Summary,
    /// Share of the steps not checkable (the goal: at most [`NOT_CHECKABLE_GOAL`]).
    pub not_checkable_share: f64,
}

/// A step checked by claim `id`.
pub const fn claim(text: &'static str, id: &'static str) -> Step {
    Step {
        text,
        check: Check::Claim {
            id,
            corrected: None,
        },
    }
}

/// A step checked by claim `id` (known false as printed) and by its corrected form `corrected`.
pub const fn fixed(text: &'static str, id: &'static str, corrected: &'static str) -> Step {
    Step {
        text,
        check: Check::Claim {
            id,
            corrected: Some(corrected),
        },
    }
}

/// A step checked by the result's statement claim `id`, and what of it the claim checks.
pub const fn statement(text: &'static str, id: &'static str, reason: &'static str) -> Step {
    Step {
        text,
        check: Check::Statement { id, reason },
    }
}

/// A definition, hypothesis, construction or choice (nothing to check), and what it is.
pub const fn definition(text: &'static str, reason: &'static str) -> Step {
    Step {
        text,
        check: Check::Definition { reason },
    }
}

/// A step no claim checks, and why.
pub const fn none(text: &'static str, reason: &'static str) -> Step {
    Step {
        text,
        check: Check::NotCheckable { reason },
    }
}

/// The maps of `all` whose id matches any of `patterns` (all when empty); a pattern matching no
/// map is an error.
pub fn select<'a>(
    all: &[&'a ProofMap],
    patterns: &[String],
) -> Result<Vec<&'a ProofMap>, crate::Error> {
    for p in patterns {
        if !all.iter().any(|m| glob_match(p, m.id)) {
            return Err(crate::Error::Input(format!(
                "no proof map matches `{p}` (see `dpclaims proofs`)"
            )));
        }
    }
    Ok(all
        .iter()
        .copied()
        .filter(|m| patterns.is_empty() || patterns.iter().any(|p| glob_match(p, m.id)))
        .collect())
}

/// The claim ids a map's steps refer to (printed, corrected and statement claims), in order,
/// without repeats.
pub fn claim_ids(maps: &[&ProofMap]) -> Vec<&'static str> {
    let mut ids = Vec::new();
    for m in maps {
        for s in m.steps {
            for x in s.check.claims() {
                if !ids.contains(&x) {
                    ids.push(x);
                }
            }
        }
    }
    ids
}

fn status_of(outcomes: &[&Outcome]) -> StepStatus {
    if outcomes.is_empty() {
        StepStatus::NotRun
    } else if outcomes.iter().any(|o| o.verdict == Verdict::Violated) {
        StepStatus::Failed
    } else if outcomes.iter().all(|o| o.verdict == Verdict::Respected) {
        StepStatus::Held
    } else {
        StepStatus::Inconclusive
    }
}

/// The verdicts of `maps` from the outcomes of a run (outcomes of claims the maps do not
/// refer to are ignored; a step whose claim has no outcome is `not-run`).
pub fn judge(maps: &[&ProofMap], outcomes: &[Outcome]) -> Vec<MapResult> {
    let of = |id: &str| -> Vec<&Outcome> {
        outcomes
            .iter()
            .filter(|o| o.claim == id && o.mutant.is_none())
            .collect()
    };
    maps.iter()
        .map(|m| {
            let mut summary = Summary::default();
            let results = m
                .steps
                .iter()
                .enumerate()
                .map(|(k, s)| {
                    let known_false = match s.check {
                        Check::Claim { id, .. } | Check::Statement { id, .. } => {
                            of(id).iter().any(|o| o.known_false)
                        }
                        _ => false,
                    };
                    let (status, n, tight, corrected_status) = match s.check {
                        Check::NotCheckable { .. } => (StepStatus::NotCheckable, 0, None, None),
                        Check::Definition { .. } => (StepStatus::Definition, 0, None, None),
                        Check::Claim { .. } | Check::Statement { .. } => {
                            let mut ids = s.check.claims();
                            let id = ids.next().unwrap_or_default();
                            let corrected = ids.next();
                            let mine = of(id);
                            let tight = mine
                                .iter()
                                .map(|o| o.tightness)
                                .filter(|t| t.is_finite())
                                .fold(None, |a: Option<f64>, t| Some(a.map_or(t, |a| a.max(t))));
                            (
                                status_of(&mine),
                                mine.len(),
                                tight,
                                corrected.map(|c| status_of(&of(c))),
                            )
                        }
                    };
                    summary.add(status);
                    if matches!(s.check, Check::Statement { .. }) {
                        summary.by_statement += 1;
                    }
                    StepResult {
                        step: format!("{}.step.{}", m.id, k + 1),
                        text: s.text,
                        check: s.check,
                        status,
                        outcomes: n,
                        max_tightness: tight,
                        corrected_status,
                        known_false,
                        on_box: None,
                        corrected_on_box: None,
                    }
                })
                .collect();
            MapResult {
                map: **m,
                results,
                summary,
            }
        })
        .collect()
}

/// The statement claims the steps of `maps` refer to ([`Check::Statement`]), in order, without
/// repeats.
pub fn statement_ids(maps: &[&ProofMap]) -> Vec<&'static str> {
    let mut ids = Vec::new();
    for m in maps {
        for s in m.steps {
            if let Check::Statement { id, .. } = s.check
                && !ids.contains(&id)
            {
                ids.push(id);
            }
        }
    }
    ids
}

/// Runs the claims of `maps` (those present in `claims`) and judges every step: the step claims
/// with `opts` (its `max_trials` caps them), the statement claims at their default size (the
/// verdict `dpclaims check` gives them; a cap would leave some inconclusive). The two runs
/// share the family-wise level: each gets half of the miss probability $1-c$ (Bonferroni).
pub fn run(
    claims: &[&dyn Claim],
    maps: &[&ProofMap],
    opts: &CheckOptions,
) -> Result<Vec<MapResult>, crate::Error> {
    run_sized(claims, maps, opts, &|_| None)
}

/// As [`run`], with statement claim `id` capped at `statement_cap(id)` trials a case (`None`:
/// its default size): the fast test tier runs them at the sizes its claim tests use. The
/// statement claims still share one Bonferroni correction, whatever their sizes.
pub fn run_sized(
    claims: &[&dyn Claim],
    maps: &[&ProofMap],
    opts: &CheckOptions,
    statement_cap: &dyn Fn(&str) -> Option<u64>,
) -> Result<Vec<MapResult>, crate::Error> {
    let statements = statement_ids(maps);
    let steps: Vec<&str> = claim_ids(maps)
        .into_iter()
        .filter(|id| !statements.contains(id))
        .collect();
    let present = |ids: &[&str]| -> Vec<&dyn Claim> {
        claims
            .iter()
            .copied()
            .filter(|c| ids.contains(&c.info().id))
            .collect()
    };
    let (steps, statements) = (present(&steps), present(&statements));
    let runs = usize::from(!steps.is_empty()) + usize::from(!statements.is_empty());
    let confidence = 1.0 - (1.0 - opts.confidence) / runs.max(1) as f64;
    let base = CheckOptions {
        patterns: Vec::new(),
        mutant: None,
        shard: None,
        confidence,
        ..opts.clone()
    };
    let mut outcomes = Vec::new();
    if !steps.is_empty() {
        outcomes.extend(harness::check(&steps, &base)?);
    }
    if !statements.is_empty() {
        let mut measured = Vec::new();
        for c in &statements {
            let opts = CheckOptions {
                max_trials: statement_cap(c.info().id),
                trials: None,
                ..base.clone()
            };
            measured.extend(harness::measure(&[*c], &opts)?);
        }
        outcomes.extend(harness::outcomes(
            &statements,
            measured,
            base.seed,
            base.confidence,
            None,
        )?);
    }
    Ok(judge(maps, &outcomes))
}

/// The budget of [`prove_steps`] in a report: boxes only (the seconds are a backstop), so that
/// the same report comes out on any machine.
pub const REPORT_BUDGET: Budget = Budget {
    boxes: 5_000,
    seconds: 60.0,
};

/// Decides on its whole box every step claim of `results` that has a closed form
/// ([`crate::prove`], one `budget` per claim): a step proved there counts as proved, one
/// refuted as refuted, in the maps' summaries (a simulated step keeps its verdict at instances).
pub fn prove_steps(
    claims: &[&dyn Claim],
    results: &mut [MapResult],
    budget: Budget,
) -> Result<(), crate::Error> {
    let mut done: Vec<(&'static str, BoxProof)> = Vec::new();
    let mut decide = |id: &'static str| -> Result<Option<BoxProof>, crate::Error> {
        if let Some((_, p)) = done.iter().find(|(x, _)| *x == id) {
            return Ok(Some(*p));
        }
        let Some(c) = claims.iter().find(|c| c.info().id == id && c.provable()) else {
            return Ok(None);
        };
        let r = crate::prove::prove(*c, None, budget)?;
        let p = BoxProof {
            verdict: r.verdict,
            undecided_share: r.undecided_share,
        };
        done.push((id, p));
        Ok(Some(p))
    };
    for m in results.iter_mut() {
        for s in m.results.iter_mut() {
            let mut ids = s.check.claims();
            if let Some(id) = ids.next() {
                let corrected = ids.next();
                s.on_box = decide(id)?;
                if let Some(c) = corrected {
                    s.corrected_on_box = decide(c)?;
                }
                match s.on_box.map(|p| p.verdict) {
                    Some(ProofVerdict::Proved) => {
                        m.summary.proved += 1;
                        // Proved on the whole box, it holds at every instance: an instance
                        // left inconclusive by its measurement's rounding counts as held.
                        if s.status == StepStatus::Inconclusive {
                            m.summary.inconclusive -= 1;
                            m.summary.held += 1;
                        }
                    }
                    Some(ProofVerdict::Refuted) => m.summary.refuted += 1,
                    _ => {}
                }
            }
        }
    }
    Ok(())
}

/// A step the prover decided against its verdict at instances: refuted on the box but held at
/// every instance is fine (the instances missed the failure), proved on the box but failed at an
/// instance is a contradiction (a bug in a closed form or in its measurement).
pub fn contradictions(results: &[MapResult]) -> Vec<String> {
    results
        .iter()
        .flat_map(|m| &m.results)
        .filter(|s| {
            s.on_box.is_some_and(|p| p.verdict == ProofVerdict::Proved)
                && s.status == StepStatus::Failed
        })
        .map(|s| s.step.clone())
        .collect()
}

/// The counts per paper, in order of first appearance.
pub fn paper_summaries(results: &[MapResult]) -> Vec<PaperSummary> {
    let mut out: Vec<PaperSummary> = Vec::new();
    for r in results {
        let idx = match out.iter().position(|p| p.paper == r.map.paper) {
            Some(i) => i,
            None => {
                out.push(PaperSummary {
                    paper: r.map.paper,
                    maps: 0,
                    summary: Summary::default(),
                    not_checkable_share: 0.0,
                });
                out.len() - 1
            }
        };
        out[idx].maps += 1;
        out[idx].summary.merge(&r.summary);
        out[idx].not_checkable_share = out[idx].summary.not_checkable_share();
    }
    out
}

fn not_checkable_cell(s: &Summary) -> String {
    format!(
        "{} ({:.0}%)",
        s.not_checkable,
        100.0 * s.not_checkable_share()
    )
}

fn check_label(c: &Check) -> String {
    match c {
        Check::Claim {
            id,
            corrected: Some(fix),
        } => format!("`{id}` (corrected: `{fix}`)"),
        Check::Claim {
            id,
            corrected: None,
        } => format!("`{id}`"),
        Check::Statement { id, reason } => format!("by the statement claim `{id}`: {reason}"),
        Check::Definition { reason } => format!("nothing to check: {reason}"),
        Check::NotCheckable { reason } => format!("not checkable: {reason}"),
    }
}

fn status_label(r: &StepResult) -> String {
    let mut s = match r.on_box {
        Some(p) if p.verdict != ProofVerdict::Undecided => p.label(),
        Some(p) => format!("{} at instances, {}", r.status.as_str(), p.label()),
        None => r.status.as_str().to_string(),
    };
    match (r.corrected_status, r.corrected_on_box) {
        (_, Some(p)) if p.verdict != ProofVerdict::Undecided => {
            s.push_str(&format!(" (corrected: {})", p.label()))
        }
        (Some(c), Some(p)) => s.push_str(&format!(
            " (corrected: {} at instances, {})",
            c.as_str(),
            p.label()
        )),
        (Some(c), None) => s.push_str(&format!(" (corrected: {})", c.as_str())),
        (None, _) => {}
    }
    s
}

/// The goal for the share of a paper's steps that are not checkable (issue #31).
pub const NOT_CHECKABLE_GOAL: f64 = 0.25;

impl Summary {
    /// Share of the steps that assert something (all but definitions, hypotheses, constructions
    /// and choices) that are not checkable (0 for no such step).
    pub fn not_checkable_share(&self) -> f64 {
        let asserting = self.steps - self.definitions;
        if asserting == 0 {
            0.0
        } else {
            self.not_checkable as f64 / asserting as f64
        }
    }
    /// Steps that held at instances only (not proved on their box).
    pub fn held_at_instances(&self) -> usize {
        self.held.saturating_sub(self.proved)
    }
}

fn summary_line(s: &Summary) -> String {
    let share = 100.0 * s.not_checkable_share();
    let goal = if s.not_checkable_share() <= NOT_CHECKABLE_GOAL {
        "within"
    } else {
        "above"
    };
    let nc = format!(
        "{} not checkable ({share:.0}% of the {} steps that assert, {goal} the goal of {:.0}%)",
        s.not_checkable,
        s.steps - s.definitions,
        100.0 * NOT_CHECKABLE_GOAL
    );
    format!(
        "{} steps ({} definitions, hypotheses or constructions; {} checked by a statement claim): {} proved on the box, {} held at instances, {} failed ({} refuted on the box), {} inconclusive, {nc}",
        s.steps,
        s.definitions,
        s.by_statement,
        s.proved,
        s.held_at_instances(),
        s.failed,
        s.refuted,
        s.inconclusive,
    )
}

/// The not-checkable steps of `paper` with their reasons, in map order.
pub fn not_checkable(results: &[MapResult], paper: &str) -> Vec<(String, &'static str)> {
    results
        .iter()
        .filter(|r| r.map.paper == paper)
        .flat_map(|r| &r.results)
        .filter_map(|s| match s.check {
            Check::NotCheckable { reason } => Some((s.step.clone(), reason)),
            _ => None,
        })
        .collect()
}

/// A plain-text rendering: each map with its steps' verdicts, then the summary per paper.
pub fn text(results: &[MapResult]) -> String {
    let mut out = String::new();
    for r in results {
        out.push_str(&format!(
            "{} — {} [{}]\n  hypotheses: {}\n",
            r.map.id, r.map.result, r.map.paper, r.map.hypotheses
        ));
        for s in &r.results {
            out.push_str(&format!(
                "  {:>2}. {:<32} {}\n      {}\n",
                s.step.rsplit('.').next().unwrap_or(""),
                status_label(s),
                s.text,
                check_label(&s.check)
            ));
        }
        out.push_str(&format!("  {}\n\n", summary_line(&r.summary)));
    }
    for p in paper_summaries(results) {
        out.push_str(&format!(
            "{}: {} maps, {}\n",
            p.paper,
            p.maps,
            summary_line(&p.summary)
        ));
    }
    for p in paper_summaries(results) {
        let left = not_checkable(results, p.paper);
        if left.is_empty() {
            continue;
        }
        out.push_str(&format!("\nnot checkable in {}:\n", p.paper));
        for (step, reason) in left {
            out.push_str(&format!("  {step}: {reason}\n"));
        }
    }
    out
}

/// A Markdown rendering (the report's "Proofs" section; `heading` is its level, e.g. `##`).
pub fn markdown(results: &[MapResult], heading: &str) -> String {
    let mut md = format!("{heading} Proofs\n\n");
    md.push_str("Each proof as an ordered list of steps: a claim with its verdict (a failed printed step is known false, its corrected step beside it; evidence in THEOREMS_NOTES.md), or a reason it is not checkable. A step with closed forms on both sides is decided on its whole box by the interval prover, an algebraic step (an identity, a substitution, the certificate of a rearranged inequality) exactly by the identity prover: both count as proved on the box; the others hold (or fail) at instances.\n\n");
    let papers = paper_summaries(results);
    md.push_str("| paper | maps | steps | definitions | proved on the box | held at instances | failed (refuted on the box) | inconclusive | of these, by a statement claim | not checkable (share of the asserting steps) |\n|---|---|---|---|---|---|---|---|---|---|\n");
    for p in &papers {
        let s = p.summary;
        md.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} ({}) | {} | {} | {} |\n",
            p.paper,
            p.maps,
            s.steps,
            s.definitions,
            s.proved,
            s.held_at_instances(),
            s.failed,
            s.refuted,
            s.inconclusive,
            s.by_statement,
            not_checkable_cell(&s)
        ));
    }
    md.push_str(&format!(
        "\nThe goal is at most {:.0}% of a paper's asserting steps not checkable (a definition, hypothesis, construction or choice asserts nothing and is counted apart; a step that is the result's statement, or rests on a cited result the statement claim exercises, is checked by that statement claim, run with the step claims). The not-checkable steps and why:\n\n",
        100.0 * NOT_CHECKABLE_GOAL
    ));
    for p in &papers {
        let left = not_checkable(results, p.paper);
        if left.is_empty() {
            continue;
        }
        md.push_str(&format!(
            "<details><summary>{} ({} steps)</summary>\n\n| step | reason |\n|---|---|\n",
            p.paper,
            left.len()
        ));
        for (step, reason) in left {
            md.push_str(&format!("| {step} | {} |\n", reason.replace('|', "\\|")));
        }
        md.push_str("\n</details>\n\n");
    }
    md.push('\n');
    for r in results {
        md.push_str(&format!(
            "{heading}# {} — {}\n\nHypotheses: {}\n\nStatement checked by: {}.\n\n",
            r.map.id,
            r.map.result,
            r.map.hypotheses,
            if r.map.statement_claims.is_empty() {
                "no claim (see its steps)".to_string()
            } else {
                r.map
                    .statement_claims
                    .iter()
                    .map(|c| format!("`{c}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        ));
        md.push_str("| step | as printed | check | verdict |\n|---|---|---|---|\n");
        for s in &r.results {
            md.push_str(&format!(
                "| {} | {} | {} | {} |\n",
                s.step.rsplit('.').next().unwrap_or(""),
                s.text.replace('|', "\\|"),
                check_label(&s.check).replace('|', "\\|"),
                status_label(s)
            ));
        }
        md.push_str(&format!("\n{}.\n\n", summary_line(&r.summary)));
    }
    md
}

/// The JSON document of `proofs --json`: `{"maps": [...], "papers": [...]}`.
pub fn json(results: &[MapResult]) -> serde_json::Value {
    serde_json::json!({
        "maps": results,
        "papers": paper_summaries(results),
    })
}
