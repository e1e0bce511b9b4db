//! Rendering outcomes: a terminal table, JSON lines, and JSON rounded for snapshots.

use dpclaims_core::claim::Claim;
use dpclaims_core::detection::DetectionFile;
pub use dpclaims_core::fmt::{aligned, round_sig, rounded};
use dpclaims_core::proofs::{self, ProofMap};
use dpclaims_core::verdict::{Outcome, Verdict};

/// One outcome as a JSON line (full precision).
pub fn json_line(o: &Outcome) -> String {
    serde_json::to_string(o).expect("outcomes serialize")
}

fn num(x: f64) -> String {
    if x.is_finite() {
        format!("{:.6}", round_sig(x, 6))
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string()
    } else {
        format!("{x}")
    }
}

fn short(x: f64) -> String {
    if x != 0.0 && x.is_finite() && (x.abs() < 1e-3 || x.abs() >= 1e6) {
        format!("{x:.4e}")
    } else {
        num(x)
    }
}

/// ` (k of them known false as printed)` when some violated outcomes are expected.
fn known_false_note(outcomes: &[Outcome]) -> String {
    let k = outcomes
        .iter()
        .filter(|o| o.verdict == Verdict::Violated && o.known_false)
        .count();
    if k == 0 {
        String::new()
    } else {
        format!(" ({k} of them known false as printed, see THEOREMS_NOTES.md)")
    }
}

/// The verdict as a table shows it: `respected [tautology]` for an outcome that holds by
/// construction.
pub fn verdict_label(o: &Outcome) -> String {
    match o.tautology {
        Some(_) => format!("{} [tautology]", o.verdict.as_str()),
        None => o.verdict.as_str().to_string(),
    }
}

/// The verdict counts of a summary line: `a respected, b not refuted (lcl<=: ...), c violated,
/// d inconclusive`. Not-refuted outcomes are counted on their own, never as respected.
pub fn verdict_counts(outcomes: &[Outcome]) -> String {
    let count = |v: Verdict| outcomes.iter().filter(|o| o.verdict == v).count();
    let not_refuted = count(Verdict::NotRefuted);
    let constructed = outcomes
        .iter()
        .filter(|o| o.verdict == Verdict::Respected && o.tautology.is_some())
        .count();
    format!(
        "{} respected{}, {}{} violated{}, {} inconclusive",
        count(Verdict::Respected),
        if constructed > 0 {
            format!(" ({constructed} of them true by construction, marked tautology)")
        } else {
            String::new()
        },
        if not_refuted > 0 {
            format!(
                "{not_refuted} not refuted (lcl<=: a lower limit at or below the bound, no upper-side test), "
            )
        } else {
            String::new()
        },
        count(Verdict::Violated),
        known_false_note(outcomes),
        count(Verdict::Inconclusive)
    )
}

/// What `check` prints first: one line per claim (its outcomes and cases, the verdict counts,
/// the tightest outcome and its case, `known false as printed` where the statement is), then
/// the totals line of [`table`]. The case table is [`table`] (`check --cases`).
pub fn summary(outcomes: &[Outcome]) -> String {
    let mut ids: Vec<&str> = Vec::new();
    for o in outcomes {
        if !ids.contains(&o.claim.as_str()) {
            ids.push(&o.claim);
        }
    }
    let mut rows = vec![[
        "claim".to_string(),
        "outcomes".into(),
        "verdicts".into(),
        "tightest".into(),
        "at".into(),
    ]];
    for id in ids {
        let mine: Vec<&Outcome> = outcomes.iter().filter(|o| o.claim == id).collect();
        let count = |v: Verdict| mine.iter().filter(|o| o.verdict == v).count();
        let mut verdicts: Vec<String> = [
            (Verdict::Respected, "respected"),
            (Verdict::NotRefuted, "not refuted"),
            (Verdict::Violated, "violated"),
            (Verdict::Inconclusive, "inconclusive"),
        ]
        .into_iter()
        .filter(|(v, _)| count(*v) > 0)
        .map(|(v, name)| format!("{} {name}", count(v)))
        .collect();
        if mine.iter().any(|o| o.known_false) {
            verdicts.push("known false as printed".into());
        }
        let tautologies = mine.iter().filter(|o| o.tautology.is_some()).count();
        if tautologies > 0 {
            verdicts.push(format!("{tautologies} tautology"));
        }
        let tightest = mine
            .iter()
            .filter(|o| o.tautology.is_none() && o.tightness.is_finite())
            .max_by(|a, b| a.tightness.total_cmp(&b.tightness));
        let cases = {
            let mut c: Vec<String> = mine.iter().map(|o| o.params.compact()).collect();
            c.sort();
            c.dedup();
            c.len()
        };
        rows.push([
            id.to_string(),
            format!(
                "{} ({cases} case{})",
                mine.len(),
                if cases == 1 { "" } else { "s" }
            ),
            verdicts.join(", "),
            tightest.map_or("-".into(), |o| format!("{:.4}", o.tightness)),
            tightest.map_or(String::new(), |o| o.params.compact()),
        ]);
    }
    let mut out = aligned(&rows);
    let table = table(outcomes);
    if let Some(totals) = table.lines().last().filter(|_| !outcomes.is_empty()) {
        out.push_str(totals);
        out.push_str(" — the case table: --cases\n");
    }
    out
}

/// The terminal table of `check`: one row per outcome and a summary line.
pub fn table(outcomes: &[Outcome]) -> String {
    let mut rows = vec![[
        "claim".to_string(),
        "verdict".into(),
        "measured".into(),
        "interval".into(),
        "rel".into(),
        "bound".into(),
        "tightness".into(),
        "n".into(),
        "case".into(),
    ]];
    for o in outcomes {
        let m = &o.measured;
        rows.push([
            o.claim.clone(),
            verdict_label(o),
            short(m.mean),
            format!("[{}, {}]", short(m.lower), short(m.upper)),
            o.relation.symbol().to_string(),
            short(o.bound),
            format!("{:.4}", o.tightness),
            m.n.to_string(),
            o.params.compact(),
        ]);
    }
    let mut out = aligned(&rows);
    if let Some(o) = outcomes.first() {
        out.push_str(&format!(
            "{} outcomes: {} (seed {}, family-wise confidence {}, per outcome {:.6}{})\n",
            outcomes.len(),
            verdict_counts(outcomes),
            o.seed,
            o.family_confidence,
            outcomes
                .iter()
                .find(|o| o.measured.n > 0)
                .map_or(1.0, |o| o.measured.confidence),
            o.mutant
                .as_ref()
                .map(|m| format!(", mutant {m}"))
                .unwrap_or_default(),
        ));
    }
    out
}

/// `dpclaims list` as text.
pub fn list_table(claims: &[&dyn Claim]) -> String {
    let mut out = String::new();
    for c in claims {
        let i = c.info();
        out.push_str(&format!(
            "{}\n  {} — {}\n  {}\n  mutants: {}\n",
            i.id,
            i.paper,
            i.result,
            i.statement,
            i.mutants
                .iter()
                .map(|m| m.name)
                .collect::<Vec<_>>()
                .join(", ")
        ));
        for t in i.tautologies {
            out.push_str(&format!("  tautology ({}): {}\n", t.scope(), t.reason));
        }
    }
    out
}

/// `dpclaims list --markdown` (`docs/claims.md`): the counts (claims, known false as printed,
/// mutants, tautologies; proof maps and their steps: checked by a step claim or the statement
/// claim, definitions, not checkable) and
/// one row per claim, grouped by source paper in the order of `claims`. Generated, never typed.
pub fn list_markdown(claims: &[&dyn Claim], maps: &[&ProofMap]) -> String {
    let infos: Vec<_> = claims.iter().map(|c| c.info()).collect();
    let known_false = infos.iter().filter(|i| i.known_false).count();
    let mutants: usize = infos.iter().map(|i| i.mutants.len()).sum();
    let tautologies = infos.iter().filter(|i| !i.tautologies.is_empty()).count();
    let steps: Vec<_> = maps.iter().flat_map(|m| m.steps).collect();
    let count = |f: fn(&proofs::Check) -> bool| steps.iter().filter(|s| f(&s.check)).count();
    let checked = count(|c| matches!(c, proofs::Check::Claim { .. }));
    let by_statement = count(|c| matches!(c, proofs::Check::Statement { .. }));
    let definitions = count(|c| matches!(c, proofs::Check::Definition { .. }));
    let not_checkable = count(|c| matches!(c, proofs::Check::NotCheckable { .. }));
    let mut md = String::from(
        "# Claims\n\nGenerated by `dpclaims list --markdown` (a test checks that this file is current); do not edit.\n\n",
    );
    md.push_str(&format!(
        "{} claims ({} known false as printed, {} with outcomes true by construction), {} mutants. {} proof maps with {} steps: {} checked by a step claim, {} by the statement claim, {} definitions (nothing to check), {} not checkable.\n",
        infos.len(),
        known_false,
        tautologies,
        mutants,
        maps.len(),
        steps.len(),
        checked,
        by_statement,
        definitions,
        not_checkable
    ));
    let mut papers: Vec<&str> = Vec::new();
    for i in &infos {
        if !papers.contains(&i.paper) {
            papers.push(i.paper);
        }
    }
    let cell = |t: &str| t.replace('|', "\\|").replace('\n', " ");
    for paper in papers {
        let mine: Vec<_> = infos.iter().filter(|i| i.paper == paper).collect();
        md.push_str(&format!(
            "\n## {}\n\n{} claims.\n\n| claim | result | statement | mutants |\n|---|---|---|---|\n",
            cell(paper),
            mine.len()
        ));
        for i in mine {
            md.push_str(&format!(
                "| `{}`{} | {} | {} | {} |\n",
                i.id,
                if i.known_false {
                    " (known false as printed)"
                } else {
                    ""
                },
                cell(i.result),
                cell(i.statement),
                i.mutants
                    .iter()
                    .map(|m| format!("`{}`", m.name))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    md
}

/// The family of a claim id: the part before the first `.` (`stability`, `accounting`, ...).
pub fn family(id: &str) -> &str {
    id.split('.').next().unwrap_or(id)
}

/// One SVG per claim family, an overview: every outcome's measurement divided by its bound, with
/// its interval as an error bar, one labelled row per outcome (`claim: case`, the case by the
/// parameters that distinguish it within its claim; never an index), coloured by claim; the
/// bound is the line at 1. Normalising by the bound puts quantities of very different scales on
/// one axis. Outcomes whose ratio is not finite (a bound of 0, an infinite bound) are counted in
/// the title and not drawn. The per-claim plots on natural axes are
/// [`crate::claim_plots::claim_plots`].
pub fn family_svg(family_name: &str, outcomes: &[&Outcome]) -> Result<String, String> {
    let mut claims: Vec<&str> = outcomes.iter().map(|o| o.claim.as_str()).collect();
    claims.dedup();
    let mut rows = Vec::new();
    for (c, claim) in claims.iter().enumerate() {
        let mine: Vec<&Outcome> = outcomes
            .iter()
            .copied()
            .filter(|o| o.claim == *claim)
            .collect();
        let short = claim
            .strip_prefix(family_name)
            .map(|s| s.trim_start_matches('.'))
            .filter(|s| !s.is_empty())
            .unwrap_or(claim);
        for (o, label) in mine.iter().zip(crate::claim_plots::case_labels(&mine)) {
            rows.extend(crate::claim_plots::ratio_row(
                o,
                format!("{short}: {label}"),
                c,
            ));
        }
    }
    let skipped = outcomes.len() - rows.len();
    let legend: Vec<(String, usize)> = claims
        .iter()
        .enumerate()
        .map(|(c, claim)| (claim.to_string(), c))
        .collect();
    crate::plot::forest_svg(
        &format!(
            "{family_name}: measured / bound per outcome (bound = 1){}",
            if skipped > 0 {
                format!("; {skipped} with no finite ratio not drawn")
            } else {
                String::new()
            }
        ),
        "measured / bound",
        &rows,
        Some((1.0, "bound")),
        &legend,
        Some(crate::claim_plots::ratio_range(&rows)),
    )
}

/// What a report shows beside the outcomes: the claims' detection thresholds and the proof
/// maps whose steps may be among the outcomes (the built-in ones are in `dpclaims-papers`).
#[derive(Default)]
pub struct ReportContext<'a> {
    /// The detection table (`docs/detection.json` for the built-in claims).
    pub detection: Option<DetectionFile>,
    /// The proof maps to judge from the outcomes (those with a step among them are shown).
    pub maps: Vec<&'a ProofMap>,
}

/// `report.md`: one section per claim (statement, source, parameters, bound, measurement with
/// interval, verdict, tightness, mutants) linking its plots on natural axes
/// ([`crate::claim_plots`]) and its family's overview.
pub fn markdown_report(
    outcomes: &[Outcome],
    claims: &[&dyn Claim],
    trials: Option<u64>,
    context: &ReportContext<'_>,
) -> String {
    let mut md = String::from("# dpclaims report\n\n");
    let detection = &context.detection;
    if let Some(o) = outcomes.first() {
        md.push_str(&format!(
            "Seed {}, family-wise confidence {} (split over {} outcomes: {:.6} each), trials per case {}.\n\n",
            o.seed,
            o.family_confidence,
            outcomes.len(),
            outcomes.iter().find(|o| o.measured.n > 0).map_or(1.0, |o| o.measured.confidence),
            trials.map_or("as each case's default (column n)".to_string(), |t| t.to_string()),
        ));
    }
    md.push_str(&format!("{}.\n\n", verdict_counts(outcomes)));
    md.push_str("Column `bound k*`: the smallest relative error of the bound this run reports violated (closed form from the interval: (bound - lower)/|bound| for an upper bound). The detection threshold of each claim (bound and algorithm, at default size) is in `dpclaims list --detection`.\n\n");
    for claim in claims {
        let info = claim.info();
        let mine: Vec<&Outcome> = outcomes.iter().filter(|o| o.claim == info.id).collect();
        if mine.is_empty() {
            continue;
        }
        md.push_str(&format!(
            "## `{}`\n\n{}\n\nSource: {} — {}.\n\n",
            info.id, info.statement, info.paper, info.result
        ));
        match crate::claim_plots::claim_plots(info.id, &mine) {
            Ok(plots) => {
                for p in plots {
                    md.push_str(&format!("Plot: [{0}]({0}) ({1})\n", p.file, p.axes));
                }
            }
            Err(e) => md.push_str(&format!("Plot: not drawn ({e})\n")),
        }
        md.push_str(&format!(
            "Family overview: [{0}.svg]({0}.svg) (measured / bound per outcome)\n\n",
            family(info.id)
        ));
        for t in info.tautologies {
            md.push_str(&format!("**Tautology** ({}): {}\n\n", t.scope(), t.reason));
        }
        match detection.as_ref().and_then(|f| f.get(info.id)) {
            Some(d) => md.push_str(&format!(
                "Detection threshold (docs/detection.json, seed {}, default size): {} — of the bound {}, of the algorithm {}{}.\n\n",
                detection.as_ref().map_or(0, |f| f.seed),
                d.threshold().map_or("-".into(), |k| format!("{k:.4}")),
                d.bound_kappa.map_or("-".into(), |k| format!("{k:.4}")),
                dpclaims_core::detection::algorithm_text(d.algorithm.as_ref()),
                d.algorithm
                    .as_ref()
                    .map(|a| format!(" ({})", a.perturbation))
                    .unwrap_or_default()
            )),
            None => md.push_str("Detection threshold: not measured.\n\n"),
        }
        md.push_str("| case | relation | bound | measured | interval | n | verdict | tightness | bound k* |\n|---|---|---|---|---|---|---|---|---|\n");
        for o in mine {
            md.push_str(&format!(
                "| {} | {} | {} | {} | [{}, {}] | {} | {} | {:.4} | {} |\n",
                o.params.compact(),
                o.relation.symbol(),
                short(o.bound),
                short(o.measured.mean),
                short(o.measured.lower),
                short(o.measured.upper),
                o.measured.n,
                verdict_label(o),
                o.tightness,
                dpclaims_core::detection::bound_threshold(o)
                    .map_or("-".into(), |k| format!("{k:.4}"))
            ));
        }
        md.push_str(&format!(
            "\nMutants (each must come out violated; `dpclaims check {} --mutant NAME`): {}\n\n",
            info.id,
            info.mutants
                .iter()
                .map(|m| format!("`{}` ({})", m.name, m.description))
                .collect::<Vec<_>>()
                .join("; ")
        ));
    }
    // The proof maps whose step claims were run, judged from the same outcomes.
    let maps: Vec<&ProofMap> = context
        .maps
        .iter()
        .copied()
        .filter(|m| {
            proofs::claim_ids(&[m])
                .iter()
                .any(|id| outcomes.iter().any(|o| o.claim == *id))
        })
        .collect();
    if !maps.is_empty() {
        let mut results = proofs::judge(&maps, outcomes);
        // Steps with closed forms or identities decided on their box, within a box budget (so
        // that the report is the same on any machine); a prover error leaves them at instances.
        let proved = proofs::prove_steps(claims, &mut results, proofs::REPORT_BUDGET);
        md.push_str(&proofs::markdown(&results, "##"));
        if let Err(e) = proved {
            md.push_str(&format!("(The proofs on the box stopped: {e}.)\n\n"));
        }
    }
    md
}

/// Writes `report.md`, the plots of every claim on its natural axes (`CLAIM.svg`, `CLAIM-2.svg`,
/// ...) and one overview SVG per claim family into `dir`; returns the files written. A claim
/// whose plot cannot be drawn has no SVG; `report.md` says why.
pub fn write_report(
    dir: &std::path::Path,
    outcomes: &[Outcome],
    claims: &[&dyn Claim],
    trials: Option<u64>,
    context: &ReportContext<'_>,
) -> Result<Vec<std::path::PathBuf>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let mut written = Vec::new();
    let md_path = dir.join("report.md");
    std::fs::write(&md_path, markdown_report(outcomes, claims, trials, context))
        .map_err(|e| format!("cannot write {}: {e}", md_path.display()))?;
    written.push(md_path);
    let mut ids: Vec<&str> = Vec::new();
    for o in outcomes {
        if !ids.contains(&o.claim.as_str()) {
            ids.push(&o.claim);
        }
    }
    for id in ids {
        let mine: Vec<&Outcome> = outcomes.iter().filter(|o| o.claim == id).collect();
        for p in crate::claim_plots::claim_plots(id, &mine).unwrap_or_default() {
            let path = dir.join(&p.file);
            std::fs::write(&path, &p.svg)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            written.push(path);
        }
    }
    let mut families: Vec<&str> = outcomes.iter().map(|o| family(&o.claim)).collect();
    families.dedup();
    for fam in families {
        let mine: Vec<&Outcome> = outcomes
            .iter()
            .filter(|o| family(&o.claim) == fam)
            .collect();
        let path = dir.join(format!("{fam}.svg"));
        std::fs::write(&path, family_svg(fam, &mine)?)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        written.push(path);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn not_refuted_is_counted_apart_from_respected() {
        use dpclaims_core::verdict::Relation;
        use dpclaims_empirical::stats::exact;
        let outcome = |relation: Relation, verdict: Verdict| Outcome {
            claim: "toy".into(),
            params: dpclaims_core::params::Params::default(),
            bound: 1.0,
            measured: exact(0.5, 1),
            relation,
            verdict,
            tightness: 0.5,
            seed: 1,
            family_confidence: 0.999,
            mutant: None,
            known_false: false,
            tautology: None,
            design: Vec::new(),
        };
        let outcomes = [
            outcome(Relation::AtMost, Verdict::Respected),
            outcome(Relation::LowerLimitAtMost, Verdict::NotRefuted),
        ];
        let counts = verdict_counts(&outcomes);
        assert!(counts.starts_with("1 respected, 1 not refuted"), "{counts}");
        let t = table(&outcomes);
        assert!(t.contains("not-refuted"), "{t}");
        assert!(!outcomes.iter().any(Outcome::unexpectedly_violated));
    }

    #[test]
    fn rounding() {
        assert_eq!(round_sig(0.030000000000000002, 6), 0.03);
        assert_eq!(round_sig(123456789.0, 6), 123457000.0);
        assert_eq!(round_sig(-1.23456789e-7, 3), -1.23e-7);
        assert_eq!(round_sig(0.0, 6), 0.0);
    }
}
