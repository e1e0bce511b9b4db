//! `dpclaims audit`: reported ε values judged unsound, sound-tight or sound-loose against
//! certified references and a Monte Carlo (exit 1 if any is unsound).

use super::*;

/// The arguments of `dpclaims audit` (the help text is on [`AccountingCommand::Audit`](super::AccountingCommand::Audit)).
#[derive(clap::Args)]
pub struct AuditArgs {
    /// Input file (`-` or none: stdin).
    pub file: Option<std::path::PathBuf>,
    /// Input format (default: by the file's extension, `.csv` or JSON lines).
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,
    /// Ask this external accountant for epsilon: rows without `epsilon` on its stdin as
    /// JSON lines, one `{"epsilon": ...}` per line on its stdout.
    #[arg(long)]
    pub command: Option<String>,
    /// Seconds allowed per row when asking --command (a row past it, or one the command
    /// crashes on, is reported as that row's error; the command is started again).
    #[arg(long, default_value_t = 300.0)]
    pub timeout: f64,
    /// Relative tolerance for sound-tight.
    #[arg(long, default_value_t = 0.05)]
    pub tolerance: f64,
    /// Simulated steps (trials x steps per trial) of each row's Monte Carlo run (a tenth when
    /// the references decide the row alone). Reproducible on any machine.
    #[arg(long, default_value_t = 200_000_000)]
    pub max_steps: u64,
    /// Instead of --max-steps: seconds for the main run (one simulated pair), converted into
    /// trials at the throughput the pilot run measured (machine-dependent: the JSON reports
    /// the trials; --trials N with the same --max-steps, which sizes the pilot, reproduces it).
    #[arg(long)]
    pub budget_seconds: Option<f64>,
    /// The main run's paths, over its strata (overrides --max-steps and --budget-seconds
    /// for the main run; the pilot stays sized by --max-steps).
    #[arg(long)]
    pub trials: Option<u64>,
    /// Plain Monte Carlo (no importance sampling).
    #[arg(long)]
    pub no_importance: bool,
    /// Audit by Monte Carlo alone (no PLD or Gaussian references), e.g. to measure its power.
    #[arg(long)]
    pub no_reference: bool,
    /// PLD point budget of one reference composition: past it the grid is coarsened (4x at
    /// a time, up to interval 1) and the row says so in a note; a row no grid fits is an
    /// error on that row.
    #[arg(long, default_value_t = accounting::ANSWER_MAX_POINTS)]
    pub max_points: usize,
    /// Write one SVG per row into this directory: delta(eps) of the references, the Monte
    /// Carlo lower limits and the claim.
    #[arg(long)]
    pub plot: Option<std::path::PathBuf>,
    /// Seed of the Monte Carlo streams.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Family-wise confidence of the Monte Carlo bounds.
    #[arg(long, default_value_t = DEFAULT_CONFIDENCE)]
    pub confidence: f64,
    /// One JSON object per row.
    #[arg(long)]
    pub json: bool,
    /// A Markdown table.
    #[arg(long)]
    pub markdown: bool,
    /// No progress on stderr.
    #[arg(long)]
    pub quiet: bool,
}

/// Runs `dpclaims audit`.
pub fn run(args: AuditArgs) -> Result<u8, Error> {
    let AuditArgs {
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
    } = args;
    let opts = crate::audit::AuditOptions {
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

/// `--format`: how the rows are written.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum FormatArg {
    /// One JSON object per line.
    Jsonl,
    /// A header line of field names, then one row per line.
    Csv,
}

/// Reads, validates and audits the rows, prints the table, JSON or Markdown.
#[allow(clippy::too_many_arguments)]
fn audit(
    file: Option<std::path::PathBuf>,
    format: Option<FormatArg>,
    command: Option<(String, f64)>,
    opts: crate::audit::AuditOptions,
    plot: Option<std::path::PathBuf>,
    json: bool,
    markdown: bool,
    progress: bool,
) -> Result<u8, Error> {
    let text = validate::read_input(file.as_deref())?;
    let format = match format {
        Some(FormatArg::Csv) => crate::audit::Format::Csv,
        Some(FormatArg::Jsonl) => crate::audit::Format::JsonLines,
        None if file
            .as_ref()
            .is_some_and(|p| p.extension().is_some_and(|e| e == "csv")) =>
        {
            crate::audit::Format::Csv
        }
        None => crate::audit::Format::JsonLines,
    };
    opts.check().map_err(|e| {
        Error::Input(format!(
            "--{} {} is out of range: expected {}",
            e.name.replace('_', "-"),
            e.value,
            e.expected
        ))
    })?;
    let mut rows = Vec::new();
    let mut errors = Vec::new();
    for parsed in crate::audit::parse(&text, format) {
        match parsed.and_then(|(line, obj)| crate::audit::validate(line, obj, command.is_none())) {
            Ok(row) => rows.push(row),
            Err(e) => errors.push(e),
        }
    }
    if let Some((cmd, timeout)) = &command {
        let timeout = validate::timeout(*timeout)?;
        errors.extend(crate::audit::ask_command(cmd, &mut rows, timeout));
    }
    let mut audits = Vec::with_capacity(rows.len());
    for result in crate::audit::audit(&rows, &opts, progress) {
        match result {
            Ok(a) => audits.push(a),
            Err(e) => errors.push(e),
        }
    }
    errors.sort_by_key(|e| e.line);
    if let Some(dir) = &plot {
        std::fs::create_dir_all(dir).map_err(|e| {
            Error::Input(format!(
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
            let svg = crate::audit::svg(a).map_err(Error::Input)?;
            std::fs::write(&path, svg)
                .map_err(|e| Error::Input(format!("cannot write {}: {e}", path.display())))?;
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
        let _ = write!(out, "{}", crate::audit::table(&audits, &errors, markdown));
    }
    for e in &errors {
        eprintln!("error: line {}: {}", e.line, e.reason);
    }
    Ok(
        if audits
            .iter()
            .any(|a| a.verdict == crate::audit::AuditVerdict::Unsound)
        {
            1
        } else if !errors.is_empty() {
            2
        } else {
            0
        },
    )
}
