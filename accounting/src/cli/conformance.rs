//! `dpclaims conformance`: a seeded suite of event queries run through an accountant, judged by
//! metamorphic properties and dpclaims' certified PLD bracket.

use super::*;

/// The arguments of `dpclaims conformance` (the help text is on [`AccountingCommand::Conformance`](super::AccountingCommand::Conformance)).
#[derive(clap::Args)]
pub struct ConformanceArgs {
    /// The accountant under test, run as `sh -c CMD`.
    #[arg(
        long,
        required_unless_present = "self_check",
        conflicts_with = "self_check"
    )]
    pub command: Option<String>,
    /// Run the suite against dpclaims' own PLD accountant, in process.
    #[arg(long = "self", id = "self_check")]
    pub self_check: bool,
    /// Seed of the suite (which events, which parameters).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Number of base events (each gives about ten checks).
    #[arg(long, default_value_t = 30)]
    pub events: usize,
    /// Wider regimes: sigma from 0.3, q from 1e-6, T up to 1e5, delta from 1e-12.
    #[arg(long)]
    pub full: bool,
    /// Relative tolerance of the equalities and of `tight`.
    #[arg(long, default_value_t = 1e-3)]
    pub tolerance: f64,
    /// Seconds allowed per query (a query past it is a `broken` answer; the command is
    /// started again on the queries after it). `CMD --supports` gets at most 30 s of it.
    #[arg(long, default_value_t = 300.0)]
    pub timeout: f64,
    /// PLD grid spacing of dpclaims' reference (and of `--self`).
    #[arg(long, default_value_t = 1e-4)]
    pub interval: f64,
    /// Copies of the suite asked under settings drawn from those the accountant declares
    /// (`"settings"` in `CMD --supports`: RDP orders, error budgets, a grid), beside the
    /// defaults; 0: the defaults only.
    #[arg(long, default_value_t = 1)]
    pub settings_samples: usize,
    /// One JSON object per check.
    #[arg(long)]
    pub json: bool,
    /// A Markdown scorecard.
    #[arg(long)]
    pub markdown: bool,
}

/// Runs `dpclaims conformance`.
pub fn run(args: ConformanceArgs) -> Result<u8, Error> {
    let ConformanceArgs {
        command,
        self_check,
        seed,
        events,
        full,
        tolerance,
        timeout,
        interval,
        settings_samples,
        json,
        markdown,
    } = args;
    let mut out = std::io::stdout().lock();
    use crate::conformance;
    use rayon::prelude::*;
    validate::tolerance(tolerance)?;
    let timeout = validate::timeout(timeout)?;
    let opts = PldOptions {
        interval,
        ..PldOptions::default()
    };
    let mut suite = conformance::generate(seed, events, full);
    let (replies, report) = match &command {
        Some(cmd) if !self_check => {
            // The declaration first (`CMD --supports`), then the suite, in rounds.
            let mut accountant = conformance::CommandAccountant::new(cmd, timeout);
            if let Some(d) = &accountant.declaration {
                suite = conformance::with_settings(&suite, &d.settings, seed, settings_samples);
                suite.epsilon_tolerance = d.epsilon_tolerance;
            }
            let replies = conformance::ask_in_rounds_with_ids(&mut suite, |ids, batch| {
                accountant.ask(ids, batch)
            });
            let report = conformance::Report {
                command: cmd.clone(),
                interval,
                undeclared: accountant.undeclared.clone(),
                declaration: accountant.declaration.clone(),
                notes: accountant.notes.clone(),
            };
            (replies, report)
        }
        _ => (
            conformance::ask_in_rounds(&mut suite, |batch| {
                batch
                    .par_iter()
                    .map(|r| conformance::self_reply(r, &opts))
                    .collect()
            }),
            conformance::Report {
                interval,
                ..conformance::Report::new(&format!("dpclaims answer --interval {interval}"))
            },
        ),
    };
    // `--self`: the replies are dpclaims' own brackets at `opts`.
    suite.own_brackets = command.is_none() || self_check;
    let outcomes = conformance::judge(&suite, &replies, tolerance, &opts);
    if json {
        for o in &outcomes {
            let _ = writeln!(
                out,
                "{}",
                serde_json::to_string(o).expect("outcomes serialize")
            );
        }
        // Stdout stays one JSON object per check: what is said of the run goes to stderr.
        let notes = conformance::render_notes(&outcomes, &report, false);
        let notes = notes.trim();
        if !notes.is_empty() {
            eprintln!("{notes}");
        }
    } else {
        let _ = write!(
            out,
            "{}",
            conformance::render_report(&outcomes, &report, markdown)
        );
    }
    Ok(if conformance::failed(&outcomes) { 1 } else { 0 })
}
