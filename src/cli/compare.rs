//! `dpclaims compare`: one DP-SGD run under each batch sampler (Poisson, random allocation,
//! shuffling, no amplification), certified ε brackets side by side
//! ([`dpclaims_accounting::compare`]), and a plot of ε against σ.
//!
//! A command of its own rather than a flag of `epsilon`: its run is a dataset size, a batch
//! size and epochs, from which every sampler's rate and steps follow, so none of `epsilon`'s
//! run flags (`--q`, `--steps`, `--sampling`, `--event`, `--phase`, `--accountant`) applies; it
//! prints one table over samplers and relations rather than one answer per accountant; and its
//! plot is drawn by the render crate, which the accountant commands' crate does not import.

use super::*;
use dpclaims_accounting::compare::{self, Row, Run, Sampler};
use dpclaims_accounting::privacy::Neighbouring;
use dpclaims_accounting::privacy::pld::PldOptions;
use dpclaims_render::plot::{Point, Series, Style, xy_svg};

/// Which relations the table shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RelationArg {
    /// Add/remove only.
    AddRemove,
    /// Replace-one only.
    ReplaceOne,
    /// Both, one group each (add/remove first).
    Both,
}

impl RelationArg {
    fn relations(self) -> Vec<Neighbouring> {
        match self {
            RelationArg::AddRemove => vec![Neighbouring::AddRemove],
            RelationArg::ReplaceOne => vec![Neighbouring::ReplaceOne],
            RelationArg::Both => vec![Neighbouring::AddRemove, Neighbouring::ReplaceOne],
        }
    }
}

/// The arguments of `dpclaims compare` (the help text is on the command's variant).
#[derive(clap::Args)]
pub struct CompareArgs {
    /// Dataset size n.
    #[arg(long)]
    pub n: u64,
    /// Batch size b, 1 <= b <= n (Poisson: q = b/n; every sampler: t = ceil(n/b) steps per
    /// epoch).
    #[arg(long)]
    pub batch: u64,
    /// Epochs E (T = E t steps).
    #[arg(long)]
    pub epochs: u64,
    /// Noise multiplier (noise std / clipping norm).
    #[arg(long, allow_negative_numbers = true)]
    pub sigma: f64,
    /// Target δ.
    #[arg(long, allow_negative_numbers = true)]
    pub delta: f64,
    /// Neighbouring relation(s): each relation is one group of rows (rows of different
    /// relations are not comparable).
    #[arg(long, value_enum, default_value = "both")]
    pub relation: RelationArg,
    /// PLD grid spacing of the privacy loss (the table).
    #[arg(long, default_value_t = 1e-4)]
    pub interval: f64,
    /// PLD point budget of one composition: past it the grid is coarsened (4x at a time) and
    /// the row says so.
    #[arg(long, default_value_t = dpclaims_accounting::query::ANSWER_MAX_POINTS)]
    pub max_points: usize,
    /// One JSON object per row (sampler and relation) instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Also draw ε against σ for every sampler (SVG): --plot-points values of σ log-spaced over
    /// [σ/2, 2σ], each bracket a band from its lower to its upper end.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<std::path::PathBuf>,
    /// Values of σ in the plot (an odd number has the given σ in the middle).
    #[arg(long, default_value_t = 9)]
    pub plot_points: usize,
    /// PLD grid spacing of the plot's points (coarser than the table's by default: the plot
    /// runs every sampler at every σ; the band shows what the grid leaves open).
    #[arg(long, default_value_t = 1e-3)]
    pub plot_interval: f64,
}

fn options(interval: f64, max_points: usize) -> Result<PldOptions, crate::Error> {
    let opts = PldOptions {
        interval,
        max_points,
        ..PldOptions::default()
    };
    opts.check()?;
    Ok(opts)
}

/// Runs `dpclaims compare`.
pub fn run(args: CompareArgs) -> Result<ExitCode, crate::Error> {
    let run = Run::new(args.n, args.batch, args.epochs, args.sigma, args.delta)?;
    let opts = options(args.interval, args.max_points)?;
    let plot_opts = options(args.plot_interval, args.max_points)?;
    if let Some(path) = &args.plot {
        if path.extension().and_then(|e| e.to_str()) != Some("svg") {
            return Err(crate::Error::Input(format!(
                "--plot {}: the plot is written as SVG; give a FILE.svg",
                path.display()
            )));
        }
        if args.plot_points < 2 {
            return Err(crate::Error::Input(format!(
                "--plot-points {}: a plot needs at least 2 values of sigma",
                args.plot_points
            )));
        }
    }
    let relations = args.relation.relations();
    let rows = compare::rows(&run, &relations, &opts);
    let mut out = std::io::stdout().lock();
    if args.json {
        for r in &rows {
            let _ = writeln!(out, "{}", serde_json::to_string(r).expect("rows serialize"));
        }
    } else {
        let _ = write!(out, "{}", compare::table(&run, &rows));
    }
    let _ = out.flush();
    if let Some(path) = &args.plot {
        let start = std::time::Instant::now();
        let sigmas = compare::sigma_grid(run.sigma, args.plot_points);
        let sweep = compare::sweep(&run, &sigmas, &relations, &plot_opts)?;
        let svg = svg(&run, &sweep, plot_opts.interval).map_err(crate::Error::Input)?;
        std::fs::write(path, svg).map_err(|e| {
            crate::Error::Input(format!("cannot write --plot {}: {e}", path.display()))
        })?;
        eprintln!(
            "wrote {} ({} values of sigma, {:.1} s)",
            path.display(),
            sigmas.len(),
            start.elapsed().as_secs_f64()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The plot of a sweep (one [`compare::rows`] per σ): for each sampler and relation with a
/// number, its upper end as a line over the band [lower, upper] (add/remove solid, replace-one
/// dashed; one colour per sampler), on log axes. A σ whose upper end is missing or infinite is
/// left out of that line.
pub fn svg(run: &Run, sweep: &[Vec<Row>], interval: f64) -> Result<String, String> {
    let mut series = Vec::new();
    let relations: Vec<Neighbouring> = [Neighbouring::AddRemove, Neighbouring::ReplaceOne]
        .into_iter()
        .filter(|rel| sweep.iter().flatten().any(|r| r.relation == *rel))
        .collect();
    for (color, sampler) in Sampler::ALL.iter().enumerate() {
        for rel in &relations {
            let points: Vec<Point> = sweep
                .iter()
                .flatten()
                .filter(|r| r.sampler == *sampler && r.relation == *rel)
                .filter_map(|r| {
                    let hi = r.upper.filter(|u| u.is_finite())?;
                    let lo = r.lower.unwrap_or(0.0).min(hi);
                    Some(Point {
                        x: r.run.sigma,
                        y: hi,
                        interval: Some([lo, hi]),
                    })
                })
                .collect();
            if points.is_empty() {
                continue;
            }
            let relation = compare::relation_name(*rel);
            let name = if *sampler == Sampler::Shuffle {
                format!("{}, {relation} (band: lower to upper end)", sampler.label())
            } else {
                format!("{}, {relation}", sampler.label())
            };
            series.push(Series {
                name,
                points,
                style: match rel {
                    Neighbouring::AddRemove => Style::Band,
                    Neighbouring::ReplaceOne => Style::DashedBand,
                },
                color,
            });
        }
    }
    let title = format!(
        "certified epsilon at delta = {:e}: n = {}, b = {}, E = {} (t = {} steps per epoch)",
        run.delta, run.n, run.batch, run.epochs, run.steps_per_epoch
    );
    xy_svg(
        &title,
        &format!("noise multiplier sigma (the table's: {})", run.sigma),
        &format!("epsilon (PLD interval {interval})"),
        &series,
        true,
        true,
    )
}
