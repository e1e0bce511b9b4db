//! An audit for people: the table (terminal or Markdown) and one row's δ(ε) picture (SVG).

use super::outcome::Audit;
use super::rows::RowError;

/// `x` with `decimals` decimals, or in scientific notation from $10^6$ on (a claimed ε of
/// $10^{300}$ is one short cell, not 300 digits).
pub(crate) fn readable(x: f64, decimals: usize) -> String {
    if x.is_finite() && x.abs() >= 1e6 {
        format!("{x:.3e}")
    } else {
        format!("{x:.decimals$}")
    }
}

/// A table of audits.
pub fn table(audits: &[Audit], errors: &[RowError], markdown: bool) -> String {
    let mut out = String::new();
    let header = [
        "line",
        "name",
        "verdict",
        "claimed eps",
        "lower ref",
        "upper ref",
        "ratio",
        "MC delta lower",
        "delta",
        "sampling",
        "relation",
    ];
    let rows: Vec<Vec<String>> = audits
        .iter()
        .map(|a| {
            vec![
                a.line.to_string(),
                a.name.clone(),
                a.verdict.as_str().to_string(),
                readable(a.claimed_epsilon, 4),
                a.lower_reference.map_or("-".into(), |l| readable(l, 4)),
                a.upper_reference.map_or("-".into(), |u| readable(u, 4)),
                a.ratio.map_or("-".into(), |r| readable(r, 3)),
                format!("{:.2e}", a.monte_carlo.delta_lower),
                format!("{:e}", a.delta),
                sampling_label(a),
                serde_json::to_value(a.relation)
                    .ok()
                    .and_then(|v| v.as_str().map(String::from))
                    .unwrap_or_default(),
            ]
        })
        .collect();
    if markdown {
        out.push_str(&format!(
            "| {} |\n|{}\n",
            header.join(" | "),
            "---|".repeat(header.len())
        ));
        for r in &rows {
            out.push_str(&format!("| {} |\n", r.join(" | ")));
        }
    } else {
        let widths: Vec<usize> = (0..header.len())
            .map(|j| {
                rows.iter()
                    .map(|r| r[j].len())
                    .chain([header[j].len()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let fmt = |cells: Vec<String>| {
            cells
                .iter()
                .zip(&widths)
                .map(|(c, w)| format!("{c:<w$}"))
                .collect::<Vec<_>>()
                .join("  ")
                .trim_end()
                .to_string()
                + "\n"
        };
        out.push_str(&fmt(header.iter().map(|s| s.to_string()).collect()));
        for r in rows {
            out.push_str(&fmt(r));
        }
    }
    let bullet = if markdown { "- " } else { "" };
    for a in audits {
        if !a.reasons.is_empty() {
            let reasons = a.reasons.join("; ");
            out.push_str(&format!(
                "{bullet}line {} ({}): {reasons}\n",
                a.line, a.name
            ));
        }
        if !a.notes.is_empty() {
            let notes = a.notes.join("; ");
            out.push_str(&format!(
                "{bullet}line {} ({}): note: {notes}\n",
                a.line, a.name
            ));
        }
    }
    for e in errors {
        out.push_str(&format!("{bullet}line {}: skipped: {}\n", e.line, e.reason));
    }
    out
}

/// One row's picture (`audit --plot`): δ(ε) of the upper and lower references over a range of ε
/// around the claim, the Monte Carlo lower limits (one-sided, each at the row's per-pair level)
/// as bars from the limit up to the estimate, and the claimed (ε, δ) as a cross; log δ axis.
pub fn svg(a: &Audit) -> Result<String, String> {
    use plotters::prelude::*;
    let curves = a.curves.as_ref().ok_or("no plot data (run with --plot)")?;
    let positive = |v: f64| v.is_finite() && v > 0.0;
    let values = curves
        .upper
        .iter()
        .chain(&curves.lower)
        .map(|p| p.1)
        .chain(curves.monte_carlo.iter().flat_map(|p| [p.mean, p.lower]))
        .chain([a.delta])
        .filter(|v| positive(*v));
    let (mut y_lo, mut y_hi) = (a.delta, a.delta);
    for v in values {
        (y_lo, y_hi) = (y_lo.min(v), y_hi.max(v));
    }
    // Six decades below the claimed delta at most: a value below the window sits on its floor.
    let (y_lo, y_hi) = ((y_lo / 3.0).max(a.delta * 1e-6), (y_hi * 3.0).min(1.0));
    let floor = |v: f64| if positive(v) { v.max(y_lo) } else { y_lo };
    let eps: Vec<f64> = curves
        .upper
        .iter()
        .chain(&curves.lower)
        .map(|p| p.0)
        .collect();
    let (x_lo, x_hi) = eps
        .iter()
        .fold((a.claimed_epsilon, a.claimed_epsilon), |(l, h), e| {
            (l.min(*e), h.max(*e))
        });
    let (x_lo, x_hi) = curves.monte_carlo.iter().fold((x_lo, x_hi), |(l, h), p| {
        (l.min(p.epsilon), h.max(p.epsilon))
    });
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (900, 520)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!(
                    "{}: δ(ε), {} sampling, {}",
                    a.name,
                    sampling_label(a),
                    a.verdict.as_str()
                ),
                ("sans-serif", 20),
            )
            .margin(12)
            .x_label_area_size(45)
            .y_label_area_size(75)
            .build_cartesian_2d(x_lo * 0.98..x_hi * 1.02, (y_lo..y_hi).log_scale())
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc("ε")
            .y_desc("δ(ε)")
            .y_label_formatter(&|v| format!("{v:.0e}"))
            .draw()
            .map_err(|e| e.to_string())?;
        for (data, color, label) in [
            (&curves.upper, RED, "upper reference"),
            (&curves.lower, BLUE, "lower reference (certified)"),
        ] {
            if data.is_empty() {
                continue;
            }
            chart
                .draw_series(LineSeries::new(
                    data.iter().map(|(e, d)| (*e, floor(*d))),
                    color.stroke_width(2),
                ))
                .map_err(|e| e.to_string())?
                .label(label)
                .legend(move |(x, y)| {
                    PathElement::new([(x, y), (x + 20, y)], color.stroke_width(2))
                });
        }
        let green = RGBColor(0, 140, 60);
        chart
            .draw_series(curves.monte_carlo.iter().map(|p| {
                ErrorBar::new_vertical(
                    p.epsilon,
                    floor(p.lower),
                    floor(p.mean),
                    floor(p.mean),
                    green.filled(),
                    8,
                )
            }))
            .map_err(|e| e.to_string())?
            .label(format!(
                "Monte Carlo estimate and lower limit ({} trials)",
                a.monte_carlo.trials
            ))
            .legend(move |(x, y)| Circle::new((x + 10, y), 4, green.filled()));
        chart
            .draw_series(
                curves
                    .monte_carlo
                    .iter()
                    .map(|p| TriangleMarker::new((p.epsilon, floor(p.lower)), 5, green.filled())),
            )
            .map_err(|e| e.to_string())?;
        chart
            .draw_series([Cross::new(
                (a.claimed_epsilon, a.delta),
                9,
                BLACK.stroke_width(3),
            )])
            .map_err(|e| e.to_string())?
            .label(format!(
                "claimed (ε = {}, δ = {:e})",
                a.claimed_epsilon, a.delta
            ))
            .legend(|(x, y)| Cross::new((x + 10, y), 6, BLACK.stroke_width(2)));
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(out)
}

/// The row's sampling as rows spell it, with $k$ for random allocation of $k>1$ steps an
/// epoch (`random-allocation (k = 2)`).
fn sampling_label(a: &Audit) -> String {
    let name = serde_json::to_value(a.sampling)
        .ok()
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_default();
    match a.selected {
        Some(k) => format!("{name} (k = {k})"),
        None => name,
    }
}
