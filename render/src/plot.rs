//! Scatter and line plots as SVG on numeric axes, linear or logarithmic: the one drawing routine
//! of the report's per-claim plots ([`crate::report`]) and of any other plot of values against a
//! parameter (e.g. a tightness frontier).
//!
//! [`xy_svg`] takes a list of [`Series`]; a series is a name (its legend entry), its points
//! `(x, y)` with an optional interval `[lo, hi]` on `y`, a [`Style`] (markers with error bars, a
//! solid line or a dashed line) and a colour index, so that a measured series and its bound line
//! can share a colour.
//!
//! Input rules (an error, never a silent NaN): every point's `x` and `y` must be finite, and
//! positive on a logarithmic axis; an interval must satisfy `lo <= y <= hi` (`NaN` ends are
//! errors). An interval end that cannot be drawn (infinite, or not positive on a log axis) is
//! drawn to the edge of the frame and the bar ends in an arrow-less open end there: the axis
//! range is computed from the drawable values only, so the bar visibly leaves the frame.

use plotters::coord::ranged1d::{AsRangedCoord, Ranged, ValueFormatter};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// How a series is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// A marker per point, with its interval (if any) as a vertical error bar.
    Points,
    /// A solid line through the points in the order given (intervals ignored).
    Line,
    /// A dashed line through the points in the order given (intervals ignored).
    Dashed,
    /// A short horizontal dash at each point (a bound known at isolated points only).
    Marks,
    /// A solid line through the points, over a translucent band filling each point's interval
    /// `[lo, hi]` (a bracket: where its ends differ, the band shows how far), with thin lines
    /// along the band's edges. A point without an interval is a band of zero width.
    Band,
    /// [`Style::Band`] with a dashed line through the points.
    DashedBand,
}

/// One point of a series: `y` at `x`, with an optional interval `[lo, hi]` around `y`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    /// The abscissa.
    pub x: f64,
    /// The ordinate (the point estimate).
    pub y: f64,
    /// The interval `[lo, hi]` around `y` (drawn as an error bar by [`Style::Points`]).
    pub interval: Option<[f64; 2]>,
}

/// A named set of points drawn in one style and colour; `name` is its legend entry (an empty
/// name adds no legend entry).
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// The legend entry.
    pub name: String,
    /// The points, in drawing order (a line joins them in this order).
    pub points: Vec<Point>,
    /// How the points are drawn.
    pub style: Style,
    /// Index into the plot palette: series with the same index share a colour.
    pub color: usize,
}

/// A colour-blind-safe palette (Okabe–Ito), then plotters' 99-colour palette.
fn color(i: usize) -> RGBColor {
    const OKABE_ITO: [RGBColor; 8] = [
        RGBColor(0, 114, 178),
        RGBColor(213, 94, 0),
        RGBColor(0, 158, 115),
        RGBColor(204, 121, 167),
        RGBColor(230, 159, 0),
        RGBColor(86, 180, 233),
        RGBColor(0, 0, 0),
        RGBColor(240, 228, 66),
    ];
    match OKABE_ITO.get(i) {
        Some(c) => *c,
        None => {
            let c = Palette99::pick(i - OKABE_ITO.len()).to_rgba();
            RGBColor(c.0, c.1, c.2)
        }
    }
}

/// A tick label: short, and in scientific notation where decimals would be long.
pub fn tick(v: f64) -> String {
    if v == 0.0 {
        return "0".into();
    }
    let a = v.abs();
    if !(1e-3..1e5).contains(&a) {
        let s = format!("{v:.1e}");
        // `1.0e-4` -> `1e-4`.
        s.replace(".0e", "e")
    } else {
        let s = format!("{:.4}", dpclaims_core::fmt::round_sig(v, 3));
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// The drawable range `[lo, hi]` of `values` on a linear or log axis, padded by 5% of the span
/// (in log space on a log axis); a single value gets a span of its own size.
fn range(values: impl Iterator<Item = f64>, log: bool) -> Option<(f64, f64)> {
    let (lo, hi) = values
        .filter(|v| v.is_finite() && (!log || *v > 0.0))
        .fold(None, |acc: Option<(f64, f64)>, v| match acc {
            None => Some((v, v)),
            Some((a, b)) => Some((a.min(v), b.max(v))),
        })?;
    if log {
        let (a, b) = (lo.log10(), hi.log10());
        let pad = if b > a { 0.05 * (b - a) } else { 0.5 };
        Some((10f64.powf(a - pad), 10f64.powf(b + pad)))
    } else {
        let pad = if hi > lo {
            0.05 * (hi - lo)
        } else if lo != 0.0 {
            0.5 * lo.abs()
        } else {
            1.0
        };
        Some((lo - pad, hi + pad))
    }
}

fn check(series: &[Series], log_x: bool, log_y: bool) -> Result<(), String> {
    for s in series {
        for p in &s.points {
            let bad = |what: &str| {
                Err(format!(
                    "plot series {:?}: point ({}, {}) {what}",
                    s.name, p.x, p.y
                ))
            };
            if !p.x.is_finite() || !p.y.is_finite() {
                return bad("is not finite");
            }
            if log_x && p.x <= 0.0 {
                return bad("has x <= 0 on a log x axis");
            }
            if log_y && p.y <= 0.0 {
                return bad("has y <= 0 on a log y axis");
            }
            if let Some([lo, hi]) = p.interval
                && !(lo <= p.y && p.y <= hi)
            {
                return bad(&format!("has an interval [{lo}, {hi}] not around y"));
            }
        }
    }
    if series.iter().all(|s| s.points.is_empty()) {
        return Err("plot: no point to draw".into());
    }
    Ok(())
}

/// Renders `series` as an SVG (900 × 520) with the given title and axis labels, each axis
/// linear or logarithmic (base 10). The axis ranges cover every point and every drawable
/// interval end (module documentation for the input rules); the legend lists the series with a
/// non-empty name, in order.
///
/// # Errors
/// A message naming the series and point when a point is not finite, not positive on a log
/// axis, or outside its own interval; when no series has a point; or when plotters fails.
pub fn xy_svg(
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[Series],
    log_x: bool,
    log_y: bool,
) -> Result<String, String> {
    check(series, log_x, log_y)?;
    let points = || series.iter().flat_map(|s| s.points.iter());
    let (x0, x1) = range(points().map(|p| p.x), log_x).ok_or("plot: no x value to draw")?;
    let (y0, y1) = range(
        points().flat_map(|p| {
            let [lo, hi] = p.interval.unwrap_or([p.y, p.y]);
            [p.y, lo, hi]
        }),
        log_y,
    )
    .ok_or("plot: no y value to draw")?;
    let labels = Labels {
        title,
        x: x_label,
        y: y_label,
    };
    // Headroom for the legend (upper left): the data keep the lower part of the frame, so the
    // legend hides no point. The frame is about 420 pixels high, a legend entry 18.
    let entries = series.iter().filter(|s| !s.name.is_empty()).count();
    let f = if entries == 0 {
        0.0
    } else {
        ((18 * entries + 16) as f64 / 420.0).min(0.6)
    };
    let y1 = if log_y {
        10f64.powf(y0.log10() + (y1.log10() - y0.log10()) / (1.0 - f))
    } else {
        y0 + (y1 - y0) / (1.0 - f)
    };
    let log = |lo: f64, hi: f64| {
        let (bold, light) = log_ticks(lo, hi);
        (lo..hi)
            .log_scale()
            .with_key_points(bold)
            .with_light_points(light)
    };
    match (log_x, log_y) {
        (false, false) => draw(labels, series, x0..x1, y0..y1),
        (true, false) => draw(labels, series, log(x0, x1), y0..y1),
        (false, true) => draw(labels, series, x0..x1, log(y0, y1)),
        (true, true) => draw(labels, series, log(x0, x1), log(y0, y1)),
    }
}

/// The labelled and the light ticks of a log axis over `[lo, hi]`: the powers of ten (every
/// k-th when there are more than 8), with 2 and 5 times them labelled too when the range spans
/// under three decades (and 3 when under one), so that every axis has at least two labels
/// where the range allows; light lines at 1..9 times the powers of ten.
fn log_ticks(lo: f64, hi: f64) -> (Vec<f64>, Vec<f64>) {
    let (a, b) = (lo.log10().floor() as i32, hi.log10().ceil() as i32);
    let decades = (hi / lo).log10();
    let mults: &[f64] = if decades < 1.0 {
        &[1.0, 2.0, 3.0, 5.0]
    } else if decades < 3.0 {
        &[1.0, 2.0, 5.0]
    } else {
        &[1.0]
    };
    let every = ((b - a) / 8).max(1);
    let inside = |v: &f64| *v >= lo && *v <= hi;
    let bold = (a..=b)
        .filter(|k| mults.len() > 1 || (k - a) % every == 0)
        .flat_map(|k| mults.iter().map(move |m| m * 10f64.powi(k)))
        .filter(inside)
        .collect();
    let light = (a..=b)
        .flat_map(|k| (1..10).map(move |m| f64::from(m) * 10f64.powi(k)))
        .filter(inside)
        .collect();
    (bold, light)
}

struct Labels<'a> {
    title: &'a str,
    x: &'a str,
    y: &'a str,
}

fn draw<X, Y>(labels: Labels, series: &[Series], x: X, y: Y) -> Result<String, String>
where
    X: AsRangedCoord<Value = f64>,
    Y: AsRangedCoord<Value = f64>,
    X::CoordDescType: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y::CoordDescType: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let mut svg = String::new();
    {
        let e = |e: DrawingAreaErrorKind<_>| e.to_string();
        let root = SVGBackend::with_string(&mut svg, (900, 520)).into_drawing_area();
        root.fill(&WHITE).map_err(e)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(labels.title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(48)
            .y_label_area_size(76)
            .build_cartesian_2d(x, y)
            .map_err(e)?;
        let yr = chart.y_range();
        chart
            .configure_mesh()
            .x_desc(labels.x)
            .y_desc(labels.y)
            .x_labels(8)
            .y_labels(8)
            .x_label_formatter(&|v| tick(*v))
            .y_label_formatter(&|v| tick(*v))
            .light_line_style(RGBColor(235, 235, 235))
            .label_style(("sans-serif", 13))
            .axis_desc_style(("sans-serif", 15))
            .draw()
            .map_err(e)?;
        // Interval ends that cannot be drawn go to the frame's edge.
        let clamp = |v: f64| {
            if v.is_nan() {
                yr.start
            } else {
                v.clamp(yr.start, yr.end)
            }
        };
        for s in series {
            let c = color(s.color);
            let pts: Vec<(f64, f64)> = s.points.iter().map(|p| (p.x, p.y)).collect();
            let drawn = match s.style {
                // A point with an interval is its error bar (whose centre is a filled marker);
                // one without is a marker.
                Style::Points => chart
                    .draw_series(s.points.iter().map(|p| -> DynElement<_, _> {
                        match p.interval {
                            Some([lo, hi]) => ErrorBar::new_vertical(
                                p.x,
                                clamp(lo),
                                p.y,
                                clamp(hi),
                                c.filled().stroke_width(1),
                                8,
                            )
                            .into_dyn(),
                            None => Circle::new((p.x, p.y), 4, c.filled()).into_dyn(),
                        }
                    }))
                    .map_err(e)?,
                Style::Line => chart
                    .draw_series(LineSeries::new(pts.iter().copied(), c.stroke_width(2)))
                    .map_err(e)?,
                Style::Marks => chart
                    .draw_series(pts.iter().map(|p| {
                        EmptyElement::at(*p)
                            + PathElement::new([(-9, 0), (9, 0)], c.stroke_width(3))
                    }))
                    .map_err(e)?,
                Style::Dashed => chart
                    .draw_series(DashedLineSeries::new(
                        pts.iter().copied(),
                        8,
                        5,
                        c.stroke_width(2),
                    ))
                    .map_err(e)?,
                Style::Band | Style::DashedBand => {
                    let ends: Vec<(f64, f64, f64)> = s
                        .points
                        .iter()
                        .map(|p| {
                            let [lo, hi] = p.interval.unwrap_or([p.y, p.y]);
                            (p.x, clamp(lo), clamp(hi))
                        })
                        .collect();
                    // The band: the upper edge left to right, the lower edge back.
                    let outline: Vec<(f64, f64)> = ends
                        .iter()
                        .map(|&(x, _, hi)| (x, hi))
                        .chain(ends.iter().rev().map(|&(x, lo, _)| (x, lo)))
                        .collect();
                    chart
                        .draw_series(std::iter::once(Polygon::new(outline, c.mix(0.18).filled())))
                        .map_err(e)?;
                    for edge in [
                        ends.iter().map(|&(x, lo, _)| (x, lo)).collect::<Vec<_>>(),
                        ends.iter().map(|&(x, _, hi)| (x, hi)).collect(),
                    ] {
                        chart
                            .draw_series(LineSeries::new(edge, c.mix(0.6).stroke_width(1)))
                            .map_err(e)?;
                    }
                    if s.style == Style::Band {
                        chart
                            .draw_series(LineSeries::new(pts.iter().copied(), c.stroke_width(2)))
                            .map_err(e)?
                    } else {
                        chart
                            .draw_series(DashedLineSeries::new(
                                pts.iter().copied(),
                                8,
                                5,
                                c.stroke_width(2),
                            ))
                            .map_err(e)?
                    }
                }
            };
            if !s.name.is_empty() {
                let style = s.style;
                drawn
                    .label(s.name.as_str())
                    .legend(move |(x, y)| -> DynElement<_, _> {
                        match style {
                            Style::Points => Circle::new((x + 10, y), 4, c.filled()).into_dyn(),
                            Style::Dashed | Style::DashedBand => {
                                plotters::element::DashedPathElement::new(
                                    [(x, y), (x + 20, y)],
                                    7,
                                    5,
                                    c.stroke_width(2),
                                )
                                .into_dyn()
                            }
                            _ => PathElement::new([(x, y), (x + 20, y)], c.stroke_width(2))
                                .into_dyn(),
                        }
                    });
            }
        }
        if series.iter().any(|s| !s.name.is_empty()) {
            legend_box(&mut chart, SeriesLabelPosition::UpperLeft)?;
        }
        root.present().map_err(e)?;
    }
    Ok(svg)
}

/// Draws the legend of `chart` at `position`.
fn legend_box<'a, 'b: 'a, X: Ranged, Y: Ranged>(
    chart: &mut ChartContext<'a, SVGBackend<'b>, Cartesian2d<X, Y>>,
    position: SeriesLabelPosition,
) -> Result<(), String> {
    chart
        .configure_series_labels()
        .position(position)
        .label_font(("sans-serif", 13))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(|e| e.to_string())
}

/// One row of a [`forest_svg`]: a labelled value with an optional interval, drawn in palette
/// colour `color`.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The row's label (the category: a case, a claim), printed left of the frame.
    pub label: String,
    /// The value.
    pub value: f64,
    /// Its interval `[lo, hi]` (drawn as a horizontal error bar).
    pub interval: Option<[f64; 2]>,
    /// A reference value of this row alone (e.g. its bound), drawn as a red vertical dash.
    pub mark: Option<f64>,
    /// Index into the plot palette.
    pub color: usize,
}

/// Renders labelled values as a horizontal strip ("forest plot"): one row per category, top to
/// bottom in the order given, the label left of the frame, the value as a marker with its
/// interval as a horizontal error bar on a linear axis `x_label`; `reference` draws a vertical
/// line (e.g. the bound at 1 of a measured / bound ratio) with its legend name, a row's `mark`
/// a red dash on its row (e.g. that row's bound), and `legend`
/// names the colours used. The axis spans `x_range` when given (values beyond it are drawn at
/// the frame's edge), else the values and finite interval ends. A label longer than 90
/// characters is shortened with `…`. The legend sits above the first row, in rows of its own.
///
/// # Errors
/// A row whose value is not finite or lies outside its interval, no rows, or a plotters failure.
pub fn forest_svg(
    title: &str,
    x_label: &str,
    rows: &[Row],
    reference: Option<(f64, &str)>,
    legend: &[(String, usize)],
    x_range: Option<(f64, f64)>,
) -> Result<String, String> {
    if rows.is_empty() {
        return Err("plot: no row to draw".into());
    }
    for r in rows {
        if !r.value.is_finite() {
            return Err(format!(
                "plot row {:?}: value {} is not finite",
                r.label, r.value
            ));
        }
        if let Some([lo, hi]) = r.interval
            && !(lo <= r.value && r.value <= hi)
        {
            return Err(format!(
                "plot row {:?}: interval [{lo}, {hi}] is not around {}",
                r.label, r.value
            ));
        }
    }
    let (x0, x1) = match x_range {
        Some(r) => r,
        None => range(
            rows.iter()
                .flat_map(|r| {
                    let [lo, hi] = r.interval.unwrap_or([r.value, r.value]);
                    [r.value, lo, hi]
                })
                .chain(reference.map(|r| r.0))
                .chain(rows.iter().filter_map(|r| r.mark)),
            false,
        )
        .ok_or("plot: no value to draw")?,
    };
    let short = |s: &str| {
        if s.chars().count() > 90 {
            format!("{}…", s.chars().take(89).collect::<String>())
        } else {
            s.to_string()
        }
    };
    let labels: Vec<String> = rows.iter().map(|r| short(&r.label)).collect();
    let label_width = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u32 * 7 + 16;
    let n = rows.len();
    // Empty rows on top for the legend (an entry is 18 pixels high, a row 22).
    let entries = legend.len() + usize::from(reference.is_some());
    let extra = if entries == 0 {
        0
    } else {
        (18 * entries + 22) / 22
    };
    let height = (110 + 22 * (n + extra) as u32).max(260);
    let width = 560 + label_width;
    let mut svg = String::new();
    {
        let e = |e: DrawingAreaErrorKind<_>| e.to_string();
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(e)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(48)
            .y_label_area_size(label_width)
            .build_cartesian_2d(x0..x1, -0.5..((n + extra) as f64 - 0.5))
            .map_err(e)?;
        chart
            .configure_mesh()
            .x_desc(x_label)
            .x_labels(8)
            .y_labels(0)
            .disable_y_mesh()
            .x_label_formatter(&|v| tick(*v))
            .light_line_style(RGBColor(235, 235, 235))
            .label_style(("sans-serif", 13))
            .axis_desc_style(("sans-serif", 15))
            .draw()
            .map_err(e)?;
        let row_y = |i: usize| (n - 1 - i) as f64;
        let clamp = |v: f64| if v.is_nan() { x0 } else { v.clamp(x0, x1) };
        if let Some((at, name)) = reference {
            chart
                .draw_series(LineSeries::new(
                    [(at, -0.5), (at, (n + extra) as f64 - 0.5)],
                    RED.stroke_width(2),
                ))
                .map_err(e)?
                .label(name)
                .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], RED.stroke_width(2)));
        }
        for (i, r) in rows.iter().enumerate() {
            let c = color(r.color);
            let y = row_y(i);
            match r.interval {
                Some([lo, hi]) => chart
                    .draw_series([ErrorBar::new_horizontal(
                        y,
                        clamp(lo),
                        clamp(r.value),
                        clamp(hi),
                        c.filled().stroke_width(1),
                        8,
                    )])
                    .map_err(e)?,
                None => chart
                    .draw_series([Circle::new((clamp(r.value), y), 4, c.filled())])
                    .map_err(e)?,
            };
            if let Some(m) = r.mark.filter(|m| m.is_finite()) {
                chart
                    .draw_series([EmptyElement::at((clamp(m), y))
                        + PathElement::new([(0, -9), (0, 9)], RED.stroke_width(3))])
                    .map_err(e)?;
            }
            let (px, py) = chart.backend_coord(&(x0, y));
            root.draw(&Text::new(
                labels[i].clone(),
                (px - 8, py),
                ("sans-serif", 13)
                    .into_font()
                    .color(&BLACK)
                    .pos(Pos::new(HPos::Right, VPos::Center)),
            ))
            .map_err(e)?;
        }
        for (name, idx) in legend {
            let c = color(*idx);
            chart
                .draw_series(std::iter::empty::<Circle<(f64, f64), i32>>())
                .map_err(e)?
                .label(name.as_str())
                .legend(move |(x, y)| Circle::new((x + 10, y), 4, c.filled()));
        }
        if reference.is_some() || !legend.is_empty() {
            legend_box(&mut chart, SeriesLabelPosition::UpperRight)?;
        }
        root.present().map_err(e)?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(x: f64, y: f64, iv: Option<[f64; 2]>) -> Point {
        Point { x, y, interval: iv }
    }

    #[test]
    fn draws_points_and_lines_on_log_axes() {
        let series = [
            Series {
                name: "measured".into(),
                points: vec![
                    pt(1.0, 0.5, Some([0.4, 0.6])),
                    pt(100.0, 0.05, Some([0.0, 0.07])),
                ],
                style: Style::Points,
                color: 0,
            },
            Series {
                name: "bound".into(),
                points: vec![pt(1.0, 1.0, None), pt(100.0, 0.1, None)],
                style: Style::Line,
                color: 0,
            },
        ];
        let svg = xy_svg("t", "steps T", "delta", &series, true, true).unwrap();
        if let Ok(dir) = std::env::var("DPCLAIMS_PLOT_DIR") {
            std::fs::write(format!("{dir}/plot_unit.svg"), &svg).unwrap();
        }
        assert!(svg.contains("steps T") && svg.contains("measured") && svg.contains("bound"));
        assert!(!svg.contains("NaN"), "{svg}");
    }

    #[test]
    fn bad_input_is_an_error() {
        let s = |p: Point| {
            [Series {
                name: "s".into(),
                points: vec![p],
                style: Style::Points,
                color: 0,
            }]
        };
        let err = |p: Point, log: bool| xy_svg("t", "x", "y", &s(p), log, log).unwrap_err();
        assert!(err(pt(f64::NAN, 1.0, None), false).contains("not finite"));
        assert!(err(pt(0.0, 1.0, None), true).contains("x <= 0"));
        assert!(err(pt(1.0, 2.0, Some([0.0, 1.0])), false).contains("not around y"));
        assert!(
            xy_svg("t", "x", "y", &[], false, false)
                .unwrap_err()
                .contains("no point")
        );
        // A single point gets a range of its own size, and an infinite interval end is drawn
        // to the frame's edge.
        let one = s(pt(3.0, 2.0, Some([1.0, f64::INFINITY])));
        assert!(xy_svg("t", "x", "y", &one, false, false).is_ok());
    }

    /// A band is drawn as a filled polygon under its line; ends that cannot be drawn (0 on a
    /// log axis, infinite) go to the frame's edge; a dashed band's legend entry is dashed.
    #[test]
    fn bands_fill_their_intervals() {
        let band = |style, color, lo: f64| Series {
            name: format!("{style:?}"),
            points: vec![
                pt(1.0, 2.0, Some([lo, 2.0])),
                pt(2.0, 1.0, Some([0.5, f64::INFINITY])),
                pt(4.0, 0.5, None),
            ],
            style,
            color,
        };
        let series = [band(Style::Band, 0, 1.5), band(Style::DashedBand, 1, 0.0)];
        let svg = xy_svg("t", "sigma", "epsilon", &series, true, true).unwrap();
        if let Ok(dir) = std::env::var("DPCLAIMS_PLOT_DIR") {
            std::fs::write(format!("{dir}/band_unit.svg"), &svg).unwrap();
        }
        assert!(svg.contains("Band") && svg.contains("DashedBand"));
        // One filled polygon per band (plotters writes polygons as <polygon>).
        assert_eq!(svg.matches("<polygon").count(), 2, "{svg}");
        assert!(!svg.contains("NaN"));
    }

    #[test]
    fn forest_rows_are_labelled() {
        let rows = [
            Row {
                label: "method=pdp-sgd".into(),
                value: 0.5,
                interval: Some([0.4, 0.6]),
                mark: None,
                color: 0,
            },
            Row {
                label: "method=dp-sgd".into(),
                value: 1.5,
                interval: Some([1.2, f64::INFINITY]),
                mark: Some(1.1),
                color: 1,
            },
        ];
        let svg = forest_svg(
            "t",
            "measured / bound",
            &rows,
            Some((1.0, "bound")),
            &[("claim".into(), 0)],
            None,
        )
        .unwrap();
        if let Ok(dir) = std::env::var("DPCLAIMS_PLOT_DIR") {
            std::fs::write(format!("{dir}/forest_unit.svg"), &svg).unwrap();
        }
        assert!(svg.contains("method=pdp-sgd") && svg.contains("method=dp-sgd"));
        assert!(!svg.contains("NaN"));
        let bad = Row {
            value: f64::NAN,
            ..rows[0].clone()
        };
        assert!(forest_svg("t", "x", &[bad], None, &[], None).is_err());
        assert!(forest_svg("t", "x", &[], None, &[], None).is_err());
    }

    #[test]
    fn ticks_are_short() {
        assert_eq!(tick(0.0001), "1e-4");
        assert_eq!(tick(0.25), "0.25");
        assert_eq!(tick(1000.0), "1000");
        assert_eq!(tick(2.0e6), "2e6");
        assert_eq!(tick(0.123456), "0.123");
    }
}
