//! Issue 19: the report's per-claim plots are on natural axes. Every claim's recorded outcomes
//! (the committed snapshots) are plotted; each SVG must parse, name a parameter (or the
//! categorical strip) as its x axis, never an outcome index, contain no NaN, draw a marker per
//! outcome with a finite measurement, and convert to PNG where `rsvg-convert` is installed (the
//! conversion is skipped, and says so, where it is not).

use dpclaims::claim_plots::{ClaimPlot, claim_plots};
use dpclaims::params::Params;
use dpclaims::verdict::{Outcome, Relation, Verdict};
use serde_json::Value;

fn float(v: &Value) -> f64 {
    match v {
        Value::String(s) if s == "inf" => f64::INFINITY,
        Value::String(s) if s == "-inf" => f64::NEG_INFINITY,
        other => other.as_f64().unwrap_or(f64::NAN),
    }
}

/// The outcomes a snapshot records (`None` for a snapshot of something else).
fn recorded(body: &str) -> Option<Vec<Outcome>> {
    let v: Value = serde_json::from_str(body).ok()?;
    v.as_array()?
        .iter()
        .map(|o| {
            let m = o.get("measured")?;
            let mut est: dpclaims::empirical::stats::Estimate = serde_json::from_value({
                let mut c = m.clone();
                for k in ["mean", "lower", "upper"] {
                    c[k] = serde_json::json!(0.0);
                }
                c
            })
            .ok()?;
            est.mean = float(&m["mean"]);
            est.lower = float(&m["lower"]);
            est.upper = float(&m["upper"]);
            Some(Outcome {
                claim: o["claim"].as_str()?.to_string(),
                params: serde_json::from_value::<Params>(o["params"].clone()).ok()?,
                bound: float(&o["bound"]),
                measured: est,
                relation: serde_json::from_value::<Relation>(o["relation"].clone()).ok()?,
                verdict: serde_json::from_value::<Verdict>(o["verdict"].clone()).ok()?,
                tightness: float(&o["tightness"]),
                seed: o["seed"].as_u64()?,
                family_confidence: o["family_confidence"].as_f64()?,
                mutant: None,
                known_false: o["known_false"].as_bool().unwrap_or(false),
                tautology: None,
                design: Vec::new(),
            })
        })
        .collect()
}

/// The checks of one claim's plots; returns the number of markers drawn.
pub fn check_plots(id: &str, plots: &[ClaimPlot], png_dir: Option<&std::path::Path>) -> usize {
    assert!(!plots.is_empty(), "{id}: no plot");
    let mut circles = 0;
    for p in plots {
        assert!(
            p.file.starts_with(id) && p.file.ends_with(".svg"),
            "{}",
            p.file
        );
        let doc = roxmltree::Document::parse(&p.svg)
            .unwrap_or_else(|e| panic!("{}: not well-formed XML: {e}", p.file));
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        assert!(!p.svg.contains("NaN"), "{}: NaN in the SVG", p.file);
        let texts: Vec<&str> = doc
            .descendants()
            .filter(|n| n.is_text())
            .filter_map(|n| n.text())
            .collect();
        for t in &texts {
            let t = t.to_lowercase();
            assert!(
                !t.contains("outcome (in the order") && !t.starts_with("outcome"),
                "{}: an index axis: {t}",
                p.file
            );
        }
        // The x axis is a parameter (drawn as its label) or the categorical strip.
        let x = p
            .axes
            .strip_prefix("x: ")
            .map(|r| r.split([' ', ',']).next().unwrap_or(""));
        match x {
            Some(x) => assert!(
                texts.iter().any(|t| t.trim() == x),
                "{}: no x axis label {x:?} among {texts:?}",
                p.file
            ),
            None => assert!(p.axes.starts_with("categorical"), "{}: {}", p.file, p.axes),
        }
        circles += doc
            .descendants()
            .filter(|n| n.tag_name().name() == "circle")
            .count();
        if let Some(dir) = png_dir {
            std::fs::write(dir.join(&p.file), &p.svg).unwrap();
            let png = dir.join(p.file.replace(".svg", ".png"));
            let status = std::process::Command::new("rsvg-convert")
                .arg(dir.join(&p.file))
                .arg("-o")
                .arg(&png)
                .status()
                .expect("rsvg-convert runs");
            assert!(status.success(), "{}: rsvg-convert failed", p.file);
            assert!(std::fs::metadata(&png).unwrap().len() > 1000);
        }
    }
    circles
}

/// A directory for PNGs when `rsvg-convert` is on the PATH (`DPCLAIMS_PLOT_DIR` keeps them).
pub fn png_dir(name: &str) -> Option<std::path::PathBuf> {
    let found = std::process::Command::new("rsvg-convert")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        eprintln!("rsvg-convert not found: SVGs checked, not converted (scripts/plots_to_png.sh)");
        return None;
    }
    let dir = match std::env::var("DPCLAIMS_PLOT_DIR") {
        Ok(d) => std::path::PathBuf::from(d).join(name),
        Err(_) => {
            std::env::temp_dir().join(format!("dpclaims-plots-{}-{name}", std::process::id()))
        }
    };
    std::fs::create_dir_all(&dir).unwrap();
    Some(dir)
}

#[test]
fn every_recorded_claim_plots_on_a_natural_axis() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/snapshots");
    let png = png_dir("snapshots");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "snap"))
        .collect();
    files.sort();
    let mut plotted = 0;
    let mut families: std::collections::BTreeMap<String, Vec<Outcome>> = Default::default();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let body = text.splitn(3, "---").nth(2).unwrap_or("");
        let Some(outcomes) = recorded(body) else {
            continue;
        };
        let Some(id) = outcomes.first().map(|o| o.claim.clone()) else {
            continue;
        };
        let refs: Vec<&Outcome> = outcomes.iter().collect();
        let plots = claim_plots(&id, &refs).unwrap_or_else(|e| panic!("{e}"));
        let circles = check_plots(&id, &plots, png.as_deref());
        if let Some(dir) = &png {
            use std::io::Write;
            let mut index = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(dir.join("axes.txt"))
                .unwrap();
            for p in &plots {
                writeln!(index, "{}  {}", p.file, p.axes).unwrap();
            }
        }
        let finite = outcomes
            .iter()
            .filter(|o| o.measured.mean.is_finite())
            .count();
        assert!(
            circles >= finite,
            "{id}: {circles} markers for {finite} outcomes"
        );
        plotted += 1;
        families
            .entry(dpclaims::report::family(&id).to_string())
            .or_default()
            .extend(outcomes);
    }
    assert!(plotted >= 80, "only {plotted} snapshots plotted");
    // The family overviews: labelled rows, one marker per outcome with a finite ratio.
    for (family, outcomes) in &families {
        let refs: Vec<&Outcome> = outcomes.iter().collect();
        let svg = dpclaims::report::family_svg(family, &refs).unwrap();
        let plot = ClaimPlot {
            file: format!("{family}.svg"),
            axes: "categorical: measured / bound per outcome".into(),
            svg,
        };
        let circles = check_plots(family, std::slice::from_ref(&plot), png.as_deref());
        let finite = outcomes
            .iter()
            .filter(|o| (o.measured.mean / o.bound).is_finite() && o.bound != 0.0)
            .count();
        assert!(
            circles >= finite,
            "{family}: {circles} markers for {finite} outcomes"
        );
    }
}

/// `report` on a small run (slope claims, a curve family, a categorical claim): every SVG it
/// writes parses, has no NaN, and each per-claim plot named in report.md carries its x label;
/// the slope claims are drawn as fitted lines through their design points on log-log axes.
#[test]
fn report_writes_natural_axis_plots() {
    use dpclaims::claims::{Claim, registry};
    use dpclaims::harness::{CheckOptions, check};
    let claims: Vec<&dyn Claim> = registry();
    let opts = CheckOptions {
        patterns: [
            "subspace.rate",
            "subspace.thm1",
            "stability.lemma5.cond",
            "contraction.thm3",
            "subspace.thm5.derived",
        ]
        .map(String::from)
        .to_vec(),
        max_trials: Some(16),
        seed: crate::SEED,
        ..CheckOptions::default()
    };
    let outcomes = check(&claims, &opts).unwrap();
    assert!(
        outcomes
            .iter()
            .filter(|o| o.claim == "subspace.rate")
            .all(|o| o.design.len() == 3),
        "the slope outcomes carry their design points"
    );
    let dir = std::env::temp_dir().join(format!("dpclaims-report-plots-{}", std::process::id()));
    let written = dpclaims::report::write_report(&dir, &outcomes, &claims, None).unwrap();
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    let png = png_dir("report");
    let mut per_claim = 0;
    for line in md.lines().filter(|l| l.starts_with("Plot: [")) {
        let file = &line[7..line.find(']').unwrap()];
        let axes = &line[line.find("](").unwrap() + 2 + file.len() + 3..line.len() - 1];
        let id = file.trim_end_matches(".svg");
        let id = id.rsplit_once('-').map_or(id, |(a, _)| a);
        let svg = std::fs::read_to_string(dir.join(file)).unwrap();
        let plot = ClaimPlot {
            file: file.to_string(),
            axes: axes.to_string(),
            svg,
        };
        check_plots(id, std::slice::from_ref(&plot), png.as_deref());
        if id == "subspace.rate" {
            assert!(
                axes.contains("fitted slopes") && axes.contains("x: p (log)"),
                "{axes}"
            );
            assert!(plot.svg.contains("slope"), "the legend gives the slope");
        }
        per_claim += 1;
    }
    // subspace.thm1: its m-slopes, its p-slopes and its proportions against m.
    for needle in [
        "subspace.rate.svg",
        "subspace.thm1.svg",
        "subspace.thm1-2.svg",
        "subspace.thm1-3.svg",
        "(contraction.thm3.svg) (x: T (log)",
        "(subspace.thm5.derived.svg) (categorical",
    ] {
        assert!(md.contains(needle), "report.md lacks {needle}:\n{md}");
    }
    assert!(per_claim >= 7, "{per_claim} per-claim plots");
    for f in written
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "svg"))
    {
        let svg = std::fs::read_to_string(f).unwrap();
        roxmltree::Document::parse(&svg).expect("well-formed SVG");
        assert!(!svg.contains("NaN"), "{}", f.display());
    }
    let _ = std::fs::remove_dir_all(&dir);
}
