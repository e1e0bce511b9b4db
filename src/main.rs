//! The `dpclaims` command line.

use clap::{Parser, Subcommand};
use dpclaims::accounting::{self, Accountant, Query};
use dpclaims::harness;
use dpclaims::{audit, claims};
use dpclaims_theorems::privacy::pld::{self, PldOptions};
use dpclaims_theorems::privacy::{DpSgd, Neighbouring, Sampling};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

/// Numerical checks of the published guarantees of DP-SGD and Langevin sampling.
#[derive(Parser)]
#[command(name = "dpclaims", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    #[command(flatten)]
    Claims(dpclaims::cli::ClaimCommand),
    /// ε of a DP-SGD run at a given δ, from the reference accountants.
    Epsilon {
        #[command(flatten)]
        run: RunArgs,
        /// Target δ.
        #[arg(long)]
        delta: f64,
    },
    /// Audit reported ε values: unsound, sound-tight or sound-loose (exit 1 if any is unsound).
    ///
    /// Rows are JSON lines or CSV (by extension or --format), from FILE or stdin, with the
    /// fields name, sampling (poisson|shuffle|wor|none), q or batch+n, sigma, steps or epochs,
    /// delta, epsilon, relation (add-remove|replace-one).
    ///
    /// Exit code: 1 if any row is unsound; else 2 if any row was skipped (unreadable, or its
    /// references or Monte Carlo could not be computed: reported by line with the reason, the
    /// other rows audited); else 0. Bad options also exit 2, with no table.
    Audit {
        /// Input file (`-` or none: stdin).
        file: Option<std::path::PathBuf>,
        #[arg(long, value_enum)]
        format: Option<FormatArg>,
        /// Ask this external accountant for epsilon: rows without `epsilon` on its stdin as
        /// JSON lines, one `{"epsilon": ...}` per line on its stdout.
        #[arg(long)]
        command: Option<String>,
        /// Seconds allowed per row when asking --command (a row past it, or one the command
        /// crashes on, is reported as that row's error; the command is started again).
        #[arg(long, default_value_t = 300.0)]
        timeout: f64,
        /// Relative tolerance for sound-tight.
        #[arg(long, default_value_t = 0.05)]
        tolerance: f64,
        /// Simulated steps (trials x steps per trial) of each row's Monte Carlo run (a tenth when
        /// the references decide the row alone). Reproducible on any machine.
        #[arg(long, default_value_t = 200_000_000)]
        max_steps: u64,
        /// Instead of --max-steps: seconds per simulated pair for the main run, converted into
        /// trials at the throughput the pilot run measured (machine-dependent: the JSON reports
        /// the trials; --trials N with the same --max-steps, which sizes the pilot, reproduces it).
        #[arg(long)]
        budget_seconds: Option<f64>,
        /// The main run's trials per simulated pair (overrides --max-steps and --budget-seconds
        /// for the main run; the pilot stays sized by --max-steps).
        #[arg(long)]
        trials: Option<u64>,
        /// Plain Monte Carlo (no importance sampling).
        #[arg(long)]
        no_importance: bool,
        /// Audit by Monte Carlo alone (no PLD or Gaussian references), e.g. to measure its power.
        #[arg(long)]
        no_reference: bool,
        /// PLD point budget of one reference composition: past it the grid is coarsened (4x at
        /// a time, up to interval 1) and the row says so in a note; a row no grid fits is an
        /// error on that row.
        #[arg(long, default_value_t = accounting::ANSWER_MAX_POINTS)]
        max_points: usize,
        /// Write one SVG per row into this directory: delta(eps) of the references, the Monte
        /// Carlo lower limits and the claim.
        #[arg(long)]
        plot: Option<std::path::PathBuf>,
        #[arg(long, default_value_t = harness::DEFAULT_SEED)]
        seed: u64,
        /// Family-wise confidence of the Monte Carlo bounds.
        #[arg(long, default_value_t = harness::DEFAULT_CONFIDENCE)]
        confidence: f64,
        /// One JSON object per row.
        #[arg(long)]
        json: bool,
        /// A Markdown table.
        #[arg(long)]
        markdown: bool,
        /// No progress on stderr.
        #[arg(long)]
        quiet: bool,
    },
    /// The convergence series of seed 001 for T = 1..steps: eq. (5)'s bound, the exact E_ε
    /// (grid) and the PLD composition bound of the same mechanism (plot-ready with --json).
    ContractionSeries {
        /// A linear instance of `contraction.main` (A_small, K_full, B_q0.5, B_q0.1, C_large, P_B, P_A).
        #[arg(long, default_value = "B_q0.1")]
        instance: String,
        #[arg(long, default_value_t = 0.25)]
        epsilon: f64,
        #[arg(long, default_value_t = 200)]
        steps: u64,
        /// PLD grid spacing of the privacy loss.
        #[arg(long, default_value_t = 1e-3)]
        pld_interval: f64,
        /// One JSON object per T.
        #[arg(long)]
        json: bool,
    },
    /// Run a seeded suite of event queries through an accountant: metamorphic properties and
    /// dpclaims' certified PLD bracket (exit 1 on any finding or broken answer).
    ///
    /// The accountant reads one event document per line with `delta` (or `epsilon`) and an
    /// `id`, and answers one `{"epsilon": x}` / `{"delta": x}` / `{"error": "..."}` per line.
    Conformance {
        /// The accountant under test, run as `sh -c CMD`.
        #[arg(
            long,
            required_unless_present = "self_check",
            conflicts_with = "self_check"
        )]
        command: Option<String>,
        /// Run the suite against dpclaims' own PLD accountant, in process.
        #[arg(long = "self", id = "self_check")]
        self_check: bool,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Number of base events (each gives about ten checks).
        #[arg(long, default_value_t = 30)]
        events: usize,
        /// Wider regimes: sigma from 0.3, q from 1e-6, T up to 1e5, delta from 1e-12.
        #[arg(long)]
        full: bool,
        /// Relative tolerance of the equalities and of `tight`.
        #[arg(long, default_value_t = 1e-3)]
        tolerance: f64,
        /// Seconds allowed per query (a query past it is a `hang` finding; the command is
        /// started again on the queries after it).
        #[arg(long, default_value_t = 300.0)]
        timeout: f64,
        /// PLD grid spacing of dpclaims' reference (and of `--self`).
        #[arg(long, default_value_t = 1e-4)]
        interval: f64,
        /// One JSON object per check.
        #[arg(long)]
        json: bool,
        /// A Markdown scorecard.
        #[arg(long)]
        markdown: bool,
    },
    /// Answer conformance queries on stdin with dpclaims' PLD accountant (the line protocol of
    /// `conformance`: dpclaims itself as the accountant of `--command`, and the reproducer of
    /// `conformance --self`).
    Answer {
        /// PLD grid spacing.
        #[arg(long, default_value_t = 1e-4)]
        interval: f64,
    },
    /// δ of a DP-SGD run at a given ε, from the reference accountants.
    Delta {
        #[command(flatten)]
        run: RunArgs,
        /// Target ε (may be negative).
        #[arg(long, allow_negative_numbers = true)]
        epsilon: f64,
    },
}

/// A DP-SGD run as the accountants see it.
#[derive(clap::Args)]
struct RunArgs {
    /// Which accountant(s).
    #[arg(long, value_enum, default_value = "all")]
    accountant: AccountantArg,
    /// How batches are drawn.
    #[arg(long, value_enum, default_value = "poisson")]
    sampling: Sampling,
    /// Sampling rate (batch / dataset size); 1 with `--sampling none`.
    #[arg(long, required_unless_present_any = ["event", "phase"])]
    q: Option<f64>,
    /// Noise multiplier (noise std / clipping norm).
    #[arg(long, required_unless_present_any = ["event", "phase"])]
    sigma: Option<f64>,
    /// Number of steps.
    #[arg(long, required_unless_present_any = ["event", "phase"])]
    steps: Option<u64>,
    /// An event document (JSON, see the README; `-` for stdin) instead of --q/--sigma/--steps:
    /// answered by the PLD accountant, or refused naming the event it does not cover.
    #[arg(long, value_name = "FILE.json", conflicts_with_all = ["q", "sigma", "steps", "orders", "sampling", "relation"])]
    event: Option<std::path::PathBuf>,
    /// A schedule instead of --q/--sigma/--steps: one phase `q,sigma,steps` per use, run in turn
    /// (Poisson or no sampling; the PLD accountant composes the phases' dominating pairs).
    #[arg(long, value_name = "Q,SIGMA,STEPS", conflicts_with_all = ["q", "sigma", "steps", "orders", "event"])]
    phase: Vec<String>,
    /// Neighbouring relation.
    #[arg(long, value_enum, default_value = "add-remove")]
    relation: RelationArg,
    /// RDP: evaluate exactly these orders (comma-separated, each > 1) instead of searching.
    #[arg(long, value_delimiter = ',')]
    orders: Option<Vec<f64>>,
    /// PLD grid spacing of the privacy loss.
    #[arg(long, default_value_t = 1e-4)]
    interval: f64,
    /// PLD point budget of one composition: past it the grid is coarsened (4x at a time) and
    /// the answer says so.
    #[arg(long, default_value_t = accounting::ANSWER_MAX_POINTS)]
    max_points: usize,
    /// One JSON object per accountant.
    #[arg(long)]
    json: bool,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum AccountantArg {
    Rdp,
    RdpMironov,
    Pld,
    All,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum FormatArg {
    Jsonl,
    Csv,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum RelationArg {
    AddRemove,
    ReplaceOne,
}

#[allow(clippy::too_many_arguments)]
fn audit(
    file: Option<std::path::PathBuf>,
    format: Option<FormatArg>,
    command: Option<(String, f64)>,
    opts: audit::AuditOptions,
    plot: Option<std::path::PathBuf>,
    json: bool,
    markdown: bool,
    progress: bool,
) -> Result<ExitCode, dpclaims::Error> {
    use std::io::Read;
    let stdin = file.as_ref().is_none_or(|p| p.as_os_str() == "-");
    let text = if stdin {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| dpclaims::Error::Input(format!("cannot read stdin: {e}")))?;
        s
    } else {
        let path = file.as_ref().expect("a path");
        std::fs::read_to_string(path)
            .map_err(|e| dpclaims::Error::Input(format!("cannot read {}: {e}", path.display())))?
    };
    let format = match format {
        Some(FormatArg::Csv) => audit::Format::Csv,
        Some(FormatArg::Jsonl) => audit::Format::JsonLines,
        None if file
            .as_ref()
            .is_some_and(|p| p.extension().is_some_and(|e| e == "csv")) =>
        {
            audit::Format::Csv
        }
        None => audit::Format::JsonLines,
    };
    if !(opts.tolerance >= 0.0 && opts.tolerance.is_finite()) {
        return Err(dpclaims::Error::Input(format!(
            "--tolerance {} is out of range: expected a number >= 0",
            opts.tolerance
        )));
    }
    if !(opts.confidence > 0.0 && opts.confidence < 1.0) {
        return Err(dpclaims::Error::Confidence(opts.confidence));
    }
    if opts.max_steps < 1000 {
        return Err(dpclaims::Error::Input(format!(
            "--max-steps {} is out of range: expected at least 1000",
            opts.max_steps
        )));
    }
    if let Some(n) = opts.trials.filter(|n| *n < 200) {
        return Err(dpclaims::Error::Input(format!(
            "--trials {n} is out of range: expected at least 200"
        )));
    }
    if let Some(b) = opts.budget_seconds {
        if !(b > 0.0 && b.is_finite()) {
            return Err(dpclaims::Error::Input(format!(
                "--budget-seconds {b} is out of range: expected a number > 0"
            )));
        }
    }
    if !(2..=pld::MAX_FFT).contains(&opts.pld.max_points) {
        return Err(dpclaims::Error::Input(format!(
            "--max-points {} is out of range: expected 2 to {}",
            opts.pld.max_points,
            pld::MAX_FFT
        )));
    }
    let mut rows = Vec::new();
    let mut errors = Vec::new();
    for parsed in audit::parse(&text, format) {
        match parsed.and_then(|(line, obj)| audit::validate(line, obj, command.is_none())) {
            Ok(row) => rows.push(row),
            Err(e) => errors.push(e),
        }
    }
    if let Some((cmd, timeout)) = &command {
        if !(*timeout > 0.0 && *timeout <= 1e9) {
            return Err(dpclaims::Error::Input(format!(
                "--timeout {timeout} is out of range: expected seconds in (0, 1e9]"
            )));
        }
        let timeout = std::time::Duration::from_secs_f64(*timeout);
        errors.extend(audit::ask_command(cmd, &mut rows, timeout));
    }
    let mut audits = Vec::with_capacity(rows.len());
    for result in audit::audit(&rows, &opts, progress) {
        match result {
            Ok(a) => audits.push(a),
            Err(e) => errors.push(e),
        }
    }
    errors.sort_by_key(|e| e.line);
    if let Some(dir) = &plot {
        std::fs::create_dir_all(dir).map_err(|e| {
            dpclaims::Error::Input(format!(
                "cannot create --plot directory {}: {e}",
                dir.display()
            ))
        })?;
        for a in &audits {
            let safe: String = a
                .name
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            let path = dir.join(format!("line-{}-{safe}.svg", a.line));
            let svg = audit::svg(a).map_err(dpclaims::Error::Input)?;
            std::fs::write(&path, svg).map_err(|e| {
                dpclaims::Error::Input(format!("cannot write {}: {e}", path.display()))
            })?;
            if progress {
                eprintln!("wrote {}", path.display());
            }
        }
    }
    let mut out = std::io::stdout().lock();
    if json {
        for a in &audits {
            let _ = writeln!(
                out,
                "{}",
                serde_json::to_string(a).expect("audits serialize")
            );
        }
        for e in &errors {
            let _ = writeln!(
                out,
                "{}",
                serde_json::json!({"line": e.line, "error": e.reason})
            );
        }
    } else {
        let _ = write!(out, "{}", audit::table(&audits, &errors, markdown));
    }
    for e in &errors {
        eprintln!("error: line {}: {}", e.line, e.reason);
    }
    Ok(
        if audits
            .iter()
            .any(|a| a.verdict == audit::AuditVerdict::Unsound)
        {
            ExitCode::from(1)
        } else if !errors.is_empty() {
            ExitCode::from(2)
        } else {
            ExitCode::SUCCESS
        },
    )
}

fn accountants(run: RunArgs, query: Query) -> Result<ExitCode, dpclaims::Error> {
    if let Some(path) = &run.event {
        return event_accountant(path, &run, query);
    }
    if !run.phase.is_empty() {
        return schedule_accountant(&run, query);
    }
    let (Some(q), Some(sigma), Some(steps)) = (run.q, run.sigma, run.steps) else {
        return Err(dpclaims::Error::Input(
            "give --q, --sigma and --steps, or --event FILE.json".into(),
        ));
    };
    let sampling = run.sampling;
    let relation = match run.relation {
        RelationArg::AddRemove => Neighbouring::AddRemove,
        RelationArg::ReplaceOne => Neighbouring::ReplaceOne,
    };
    let mech = DpSgd::new(q, sigma, steps, sampling, relation)?;
    let which: Vec<Accountant> = match run.accountant {
        AccountantArg::Rdp => vec![Accountant::Rdp],
        AccountantArg::RdpMironov => vec![Accountant::RdpMironov],
        AccountantArg::Pld => vec![Accountant::Pld],
        AccountantArg::All => Accountant::ALL.to_vec(),
    };
    let opts = PldOptions {
        interval: run.interval,
        max_points: run.max_points,
        ..PldOptions::default()
    };
    if let Some(bad) = run
        .orders
        .iter()
        .flatten()
        .find(|a| !(**a > 1.0 && a.is_finite()))
    {
        return Err(dpclaims_theorems::ParamError::new("orders", bad, "finite orders > 1").into());
    }
    let answers = which
        .iter()
        .map(|a| accounting::run(*a, &mech, query, &opts, run.orders.as_deref()))
        .collect::<Result<Vec<_>, _>>()?;
    let mut out = std::io::stdout().lock();
    for a in &answers {
        let text = if run.json {
            serde_json::to_string(a).expect("answers serialize")
        } else {
            accounting::line(a)
        };
        let _ = writeln!(out, "{text}");
    }
    if answers.iter().all(|a| a.error.is_some()) {
        eprintln!("error: no selected accountant covers this run");
        return Ok(ExitCode::from(2));
    }
    Ok(ExitCode::SUCCESS)
}

/// `epsilon --phase q,sigma,steps ...`: a schedule, as the event document it is (a composition
/// of self-composed, Poisson-sampled Gaussians), answered by the PLD accountant.
fn schedule_accountant(run: &RunArgs, query: Query) -> Result<ExitCode, dpclaims::Error> {
    use dpclaims_theorems::privacy::event::{Event, EventDoc};
    let mut events = Vec::new();
    for (i, text) in run.phase.iter().enumerate() {
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        let bad = |why: &str| {
            dpclaims::Error::Input(format!(
                "--phase {text:?} (phase {}): {why}; expected q,sigma,steps",
                i + 1
            ))
        };
        let [q, sigma, steps] = parts[..] else {
            return Err(bad("three comma-separated numbers"));
        };
        let q: f64 = q.parse().map_err(|_| bad("q is not a number"))?;
        let sigma: f64 = sigma.parse().map_err(|_| bad("sigma is not a number"))?;
        let steps: u64 = steps
            .parse()
            .map_err(|_| bad("steps is not a non-negative integer"))?;
        // Validated as a DP-SGD run (q in (0, 1], sigma > 0, steps >= 1, q = 1 without sampling).
        let sampling = run.sampling;
        if !matches!(sampling, Sampling::Poisson | Sampling::None) {
            return Err(bad("schedules are supported for poisson and none sampling"));
        }
        DpSgd::new(q, sigma, steps, sampling, Neighbouring::AddRemove)?;
        let gaussian = Event::Gaussian {
            noise_multiplier: sigma,
        };
        let step = if sampling == Sampling::None {
            gaussian
        } else {
            Event::PoissonSampled {
                sampling_probability: q,
                event: Box::new(gaussian),
            }
        };
        events.push(Event::SelfComposed {
            event: Box::new(step),
            count: steps,
        });
    }
    let doc = EventDoc {
        version: 1,
        neighbouring: match run.relation {
            RelationArg::AddRemove => Neighbouring::AddRemove,
            RelationArg::ReplaceOne => Neighbouring::ReplaceOne,
        },
        event: Event::Composed { events },
    };
    answer_event(&doc, run, query)
}

/// The PLD accountant's answer to an event document, printed.
fn answer_event(
    doc: &dpclaims_theorems::privacy::event::EventDoc,
    run: &RunArgs,
    query: Query,
) -> Result<ExitCode, dpclaims::Error> {
    if !matches!(run.accountant, AccountantArg::Pld | AccountantArg::All) {
        return Err(dpclaims::Error::Input(
            "--event and --phase are answered by the PLD accountant only (--accountant pld or all)"
                .into(),
        ));
    }
    let opts = PldOptions {
        interval: run.interval,
        max_points: run.max_points,
        ..PldOptions::default()
    };
    let answer = accounting::run_event(doc, query, &opts)?;
    let text = if run.json {
        serde_json::to_string(&answer).expect("answers serialize")
    } else {
        accounting::event_line(&answer)
    };
    let _ = writeln!(std::io::stdout().lock(), "{text}");
    Ok(ExitCode::SUCCESS)
}

/// `epsilon --event` / `delta --event`: the PLD accountant on an event document.
fn event_accountant(
    path: &std::path::Path,
    run: &RunArgs,
    query: Query,
) -> Result<ExitCode, dpclaims::Error> {
    let text = if path.as_os_str() == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
            .map_err(|e| dpclaims::Error::Input(format!("cannot read stdin: {e}")))?;
        s
    } else {
        std::fs::read_to_string(path)
            .map_err(|e| dpclaims::Error::Input(format!("cannot read {}: {e}", path.display())))?
    };
    let doc = dpclaims_theorems::privacy::event::EventDoc::parse(&text)?;
    answer_event(&doc, run, query)
}

fn run(cli: Cli) -> Result<ExitCode, dpclaims::Error> {
    let mut out = std::io::stdout().lock();
    match cli.command {
        Command::Claims(command) => dpclaims::cli::run(&claims::registry(), command),
        Command::Audit {
            file,
            format,
            command,
            timeout,
            tolerance,
            max_steps,
            budget_seconds,
            trials,
            no_importance,
            no_reference,
            max_points,
            plot,
            seed,
            confidence,
            json,
            markdown,
            quiet,
        } => {
            let opts = audit::AuditOptions {
                tolerance,
                max_steps,
                budget_seconds,
                trials,
                importance: !no_importance,
                no_reference,
                plot: plot.is_some(),
                seed,
                confidence,
                pld: PldOptions {
                    max_points,
                    ..PldOptions::default()
                },
            };
            audit(
                file,
                format,
                command.map(|c| (c, timeout)),
                opts,
                plot,
                json,
                markdown,
                !quiet && std::io::stderr().is_terminal(),
            )
        }
        Command::ContractionSeries {
            instance,
            epsilon,
            steps,
            pld_interval,
            json,
        } => {
            let points = claims::contraction::series(&instance, epsilon, steps, pld_interval)
                .map_err(|source| dpclaims::Error::Param {
                    claim: "contraction-series".to_string(),
                    source,
                })?;
            let mut out = std::io::stdout().lock();
            if !json {
                let _ = writeln!(
                    out,
                    "{:>5}  {:>12}  {:>12}  {:>10}  {:>12}",
                    "T", "bound (5)", "exact", "grid err", "composition"
                );
            }
            for p in &points {
                let _ = if json {
                    writeln!(out, "{}", serde_json::to_string(p).unwrap_or_default())
                } else {
                    writeln!(
                        out,
                        "{:>5}  {:>12.6}  {:>12.6}  {:>10.1e}  {:>12.6}",
                        p.steps, p.contraction_bound, p.exact, p.exact_error, p.composition_bound
                    )
                };
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Conformance {
            command,
            self_check,
            seed,
            events,
            full,
            tolerance,
            timeout,
            interval,
            json,
            markdown,
        } => {
            use dpclaims::conformance;
            use rayon::prelude::*;
            if !(tolerance >= 0.0 && tolerance.is_finite()) {
                return Err(dpclaims::Error::Input(format!(
                    "--tolerance {tolerance} is out of range: expected a number >= 0"
                )));
            }
            if !(timeout > 0.0 && timeout <= 1e9) {
                return Err(dpclaims::Error::Input(format!(
                    "--timeout {timeout} is out of range: expected seconds in (0, 1e9]"
                )));
            }
            let opts = PldOptions {
                interval,
                ..PldOptions::default()
            };
            let mut suite = conformance::generate(seed, events, full);
            let (replies, name) = match &command {
                Some(cmd) if !self_check => (
                    conformance::ask_in_rounds(&mut suite, |batch| {
                        conformance::ask_command(
                            cmd,
                            batch,
                            std::time::Duration::from_secs_f64(timeout),
                        )
                    }),
                    cmd.clone(),
                ),
                _ => (
                    conformance::ask_in_rounds(&mut suite, |batch| {
                        batch
                            .par_iter()
                            .map(|r| conformance::self_reply(r, &opts))
                            .collect()
                    }),
                    format!("dpclaims answer --interval {interval}"),
                ),
            };
            let outcomes = conformance::judge(&suite, &replies, tolerance, &opts);
            if json {
                for o in &outcomes {
                    let _ = writeln!(
                        out,
                        "{}",
                        serde_json::to_string(o).expect("outcomes serialize")
                    );
                }
            } else {
                let _ = write!(out, "{}", conformance::render(&outcomes, &name, markdown));
            }
            Ok(if conformance::failed(&outcomes) {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            })
        }
        Command::Answer { interval } => {
            use dpclaims::conformance::{Reply, Request, reply_line, self_reply};
            use std::io::BufRead;
            let opts = PldOptions {
                interval,
                ..PldOptions::default()
            };
            for line in std::io::stdin().lock().lines() {
                let Ok(line) = line else { break };
                if line.trim().is_empty() {
                    continue;
                }
                let answer = match Request::parse_line(&line) {
                    Ok((_, req)) => reply_line(req.query, &self_reply(&req, &opts)),
                    Err(e) => reply_line(Query::Epsilon { delta: 0.0 }, &Reply::Refused(e)),
                };
                let _ = writeln!(out, "{answer}");
                let _ = out.flush();
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Epsilon { run, delta } => accountants(run, Query::Epsilon { delta }),
        Command::Delta { run, epsilon } => accountants(run, Query::Delta { epsilon }),
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
