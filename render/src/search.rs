//! Rendering of counterexample searches ([`dpclaims_core::search`]): the terminal table, the
//! tightness-frontier plot and the report section.

use crate::plot::{Point, Series, Style, xy_svg};
use dpclaims_core::fmt::aligned;
use dpclaims_core::params::Params;
use dpclaims_core::search::{Candidate, SearchResult, axes_by_importance, key_compact, score_text};
use dpclaims_core::space::Range;
use serde_json::Value;

/// The table of search results: claim, default score, worst found, confirmed (score, verdict,
/// seed) and the instance.
pub fn table(results: &[SearchResult]) -> String {
    let mut rows = vec![[
        "claim".to_string(),
        "default".into(),
        "worst found".into(),
        "confirmed (certified)".into(),
        "verdict".into(),
        "evaluated".into(),
        "instance".into(),
    ]];
    for r in results {
        let best = r.worst_confirmed();
        rows.push([
            r.claim.clone(),
            score_text(r.default_score()),
            r.best().map_or("-".into(), |b| score_text(b.score)),
            best.map_or("-".into(), |c| {
                format!("{} ({})", score_text(c.score), score_text(c.certified))
            }),
            best.map_or("-".into(), |c| c.verdict.as_str().to_string()),
            format!("{} in {:.0} s", r.evaluations, r.seconds),
            best.map_or("-".into(), |c| key_compact(&c.params, &r.space)),
        ]);
    }
    let mut s = aligned(&rows);
    for r in results {
        let again = if r.stopped_by_budget {
            format!(
                "stopped by the time budget after {} of {}: reproduce with --evaluations {} --stop-after {} --seed {}",
                r.evaluations, r.requested, r.requested, r.evaluations, r.seed
            )
        } else {
            format!(
                "reproduce the search with --evaluations {} --seed {}",
                r.requested, r.seed
            )
        };
        s.push_str(&format!(
            "{}: search seed {}, confirmed on seed {} at the default size ({again})\n",
            r.claim, r.seed, r.confirm_seed
        ));
        if let Some(f) = &r.first_failure {
            s.push_str(&format!(
                "  {} candidate(s) could not be measured; the first: {f}\n",
                r.failed
            ));
        }
        if let Some(v) = &r.violation {
            s.push_str(&format!(
                "  VIOLATED at {} (shrunk from {}); reproduce: {}\n",
                key_compact(&v.instance.params, &r.space),
                key_compact(&v.shrunk_from, &r.space),
                v.command
            ));
        }
    }
    s
}

/// The tightness frontier of a search as SVG: every candidate's score against the most
/// important axis (its natural scale: log when the axis is), split in two series by the
/// second most important axis (below / above its median), the confirmed candidates with their
/// confirmation scores, and the violation boundary (score 1) as a dashed line. `None` when
/// the space has no numeric axis or no finite score.
pub fn frontier_svg(r: &SearchResult) -> Option<Result<String, String>> {
    let order = axes_by_importance(r);
    let (x_name, _) = *order.first()?;
    let x_axis = r.space.axes.iter().find(|a| a.name == x_name)?;
    let log_x = matches!(
        x_axis.range,
        Range::Real { log: true, .. } | Range::Int { log: true, .. }
    );
    let point = |p: &Params, score: f64| -> Option<Point> {
        let x = p.0.get(x_name)?.as_f64()?;
        (score.is_finite() && x.is_finite()).then_some(Point {
            x,
            y: score,
            interval: None,
        })
    };
    let finite: Vec<&Candidate> = r
        .candidates
        .iter()
        .filter(|c| c.score.is_finite())
        .collect();
    let log_y = finite.iter().all(|c| c.score > 0.0) && {
        let (lo, hi) = finite.iter().fold((f64::INFINITY, 0.0f64), |(l, h), c| {
            (l.min(c.score), h.max(c.score))
        });
        hi / lo > 100.0
    };
    let second = order.get(1).map(|(n, _)| *n);
    let mut series = Vec::new();
    match second {
        Some(y_name) => {
            let mut vals: Vec<f64> = finite
                .iter()
                .filter_map(|c| c.params.0.get(y_name)?.as_f64())
                .collect();
            vals.sort_by(f64::total_cmp);
            let median = vals.get(vals.len() / 2).copied().unwrap_or(0.0);
            for (k, (name, low)) in [
                (
                    format!("candidates, {y_name} <= {}", crate::plot::tick(median)),
                    true,
                ),
                (
                    format!("candidates, {y_name} > {}", crate::plot::tick(median)),
                    false,
                ),
            ]
            .into_iter()
            .enumerate()
            {
                let points: Vec<Point> = finite
                    .iter()
                    .filter(|c| {
                        c.params
                            .0
                            .get(y_name)
                            .and_then(Value::as_f64)
                            .map(|v| v <= median)
                            == Some(low)
                    })
                    .filter_map(|c| point(&c.params, c.score))
                    .collect();
                if !points.is_empty() {
                    series.push(Series {
                        name,
                        points,
                        style: Style::Points,
                        color: k,
                    });
                }
            }
        }
        None => series.push(Series {
            name: "candidates (search size and seed)".into(),
            points: finite
                .iter()
                .filter_map(|c| point(&c.params, c.score))
                .collect(),
            style: Style::Points,
            color: 0,
        }),
    }
    let confirmed: Vec<Point> = r
        .confirmed
        .iter()
        .filter_map(|c| point(&c.params, c.score))
        .collect();
    if !confirmed.is_empty() {
        series.push(Series {
            name: format!("confirmed (seed {}, default size)", r.confirm_seed),
            points: confirmed,
            style: Style::Points,
            color: 6,
        });
    }
    let xs: Vec<f64> = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.x))
        .collect();
    let (x0, x1) = xs
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), x| {
            (l.min(*x), h.max(*x))
        });
    if !x0.is_finite() {
        return None;
    }
    series.push(Series {
        name: "violation boundary (score 1)".into(),
        points: [x0, x1]
            .into_iter()
            .map(|x| Point {
                x,
                y: 1.0,
                interval: None,
            })
            .collect(),
        style: Style::Dashed,
        color: 1,
    });
    Some(xy_svg(
        &format!("{}: tightness frontier", r.claim),
        x_name,
        "closeness to violation (measured/bound for an upper bound)",
        &series,
        log_x,
        log_y,
    ))
}

/// The report section of a set of searches: the table (claim, default tightness, worst found,
/// confirmed, verdict, instance), the seeds, every violation with its command, and a link to
/// each claim's frontier plot `search-<claim>.svg`.
pub fn markdown(results: &[SearchResult], plots: &[(String, String)]) -> String {
    let mut md = String::from(
        "## Tightness frontier (counterexample search)\n\nEach claim's declared parameter space searched for its tightest instance (random candidates from the space's proptest strategy, then coordinate refinement), at the search size and seed; the best candidates re-measured at the default size on a fresh seed (the confirmation, not biased by the selection). Score: measured/bound for an upper bound, bound/measured for a lower bound (point estimates); above 1 is a violation by the point estimate. The certified score (in brackets) takes the interval's end the verdict must pass (the lower limit for an upper bound): above 1 is a violated verdict. The search ranks by the certified score, so that noise or a wide bracket does not win; 'worst found' is the point score of the candidate it ranked first.\n\n| claim | default | worst found | confirmed (certified) | verdict | evaluated | instance |\n|---|---|---|---|---|---|---|\n",
    );
    for r in results {
        let best = r.worst_confirmed();
        md.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | {} (seed {}; confirmed on seed {}) | {} |\n",
            r.claim,
            score_text(r.default_score()),
            r.best().map_or("-".into(), |b| score_text(b.score)),
            best.map_or("-".into(), |c| format!(
                "{} ({})",
                score_text(c.score),
                score_text(c.certified)
            )),
            best.map_or("-", |c| c.verdict.as_str()),
            r.evaluations,
            r.seed,
            r.confirm_seed,
            best.map_or("-".into(), |c| key_compact(&c.params, &r.space)),
        ));
    }
    for r in results {
        if let Some(v) = &r.violation {
            md.push_str(&format!(
                "\n**{} violated** at {} (shrunk from {}): `{}`\n",
                r.claim,
                key_compact(&v.instance.params, &r.space),
                key_compact(&v.shrunk_from, &r.space),
                v.command
            ));
        }
    }
    for (claim, file) in plots {
        md.push_str(&format!(
            "\n### `{claim}`\n\n![{claim} tightness frontier]({file})\n"
        ));
    }
    md
}

/// Writes one frontier plot per search into `dir` (`search-<claim>.svg`) and appends the
/// "Tightness frontier" section to `dir/report.md`; returns the files written.
pub fn write_section(
    dir: &std::path::Path,
    results: &[SearchResult],
) -> Result<Vec<std::path::PathBuf>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let mut files = Vec::new();
    let mut plots = Vec::new();
    for r in results {
        if let Some(svg) = frontier_svg(r) {
            let name = format!("search-{}.svg", r.claim);
            let path = dir.join(&name);
            std::fs::write(&path, svg?)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            files.push(path);
            plots.push((r.claim.clone(), name));
        }
    }
    let md_path = dir.join("report.md");
    let mut md = std::fs::read_to_string(&md_path).unwrap_or_default();
    if !md.is_empty() && !md.ends_with("\n\n") {
        md.push('\n');
    }
    md.push_str(&markdown(results, &plots));
    std::fs::write(&md_path, md).map_err(|e| format!("cannot write {}: {e}", md_path.display()))?;
    files.push(md_path);
    Ok(files)
}
