//! `dpclaims epsilon` and `dpclaims delta`: one query (ε at a δ, or δ at an ε) to the reference
//! accountants, for a DP-SGD run given by its flags, a schedule of phases or an event document.

use super::*;

/// A DP-SGD run as the accountants see it.
#[derive(clap::Args)]
pub struct RunArgs {
    /// Which accountant(s).
    #[arg(long, value_enum, default_value = "all")]
    accountant: AccountantArg,
    /// How batches are drawn.
    #[arg(long, value_enum, default_value = "poisson")]
    sampling: SamplingArg,
    /// Sampling rate (batch / dataset size); 1 with `--sampling none`; 1/t with
    /// `--sampling random-allocation` (or give --steps-per-epoch).
    #[arg(long, required_unless_present_any = ["event", "phase", "steps_per_epoch"])]
    q: Option<f64>,
    /// Noise multiplier (noise std / clipping norm).
    #[arg(long, required_unless_present_any = ["event", "phase"])]
    sigma: Option<f64>,
    /// Number of steps (with `--sampling random-allocation`: a whole number of epochs, or give
    /// --epochs).
    #[arg(long, required_unless_present_any = ["event", "phase", "epochs"])]
    steps: Option<u64>,
    /// `--sampling random-allocation`: the steps t of one epoch (each record is in exactly one
    /// of them, chosen uniformly); instead of --q = 1/t.
    #[arg(long, value_name = "T", conflicts_with_all = ["event", "phase"])]
    steps_per_epoch: Option<u64>,
    /// `--sampling random-allocation`: each record is in K of the t steps of an epoch, chosen
    /// uniformly (default 1, balls-in-bins); --q is then K/t.
    #[arg(long, value_name = "K", conflicts_with_all = ["event", "phase"])]
    selected: Option<u64>,
    /// `--sampling random-allocation`: the number of epochs E; instead of --steps = E t.
    #[arg(long, value_name = "E", conflicts_with_all = ["event", "phase"])]
    epochs: Option<u64>,
    /// An event document (JSON, see docs/accounting.md; `-` for stdin) instead of --q/--sigma/--steps:
    /// answered by the PLD accountant, or refused naming the event it does not cover.
    #[arg(long, value_name = "FILE.json", conflicts_with_all = ["q", "sigma", "steps", "orders", "sampling", "relation"])]
    event: Option<std::path::PathBuf>,
    /// A schedule instead of --q/--sigma/--steps: one phase `q,sigma,steps` per use, run in turn
    /// (Poisson or no sampling; the PLD accountant composes the phases' dominating pairs).
    #[arg(long, value_name = "Q,SIGMA,STEPS", conflicts_with_all = ["q", "sigma", "steps", "orders", "event"])]
    phase: Vec<String>,
    /// Neighbouring relation.
    #[arg(long, value_enum, default_value = "add-remove")]
    relation: Neighbouring,
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

/// `--sampling`: the schemes of [`Sampling`] a one-step accountant covers, and random
/// allocation, which the PLD accountant answers as an event document (one epoch is not $t$
/// independent steps).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SamplingArg {
    /// Each record independently with probability q.
    Poisson,
    /// A fixed-size batch of q·n records without replacement, independently at every step.
    Wor,
    /// Every record every step (q = 1).
    None,
    /// Random allocation: every record in K of the t steps of each epoch (--selected, default
    /// 1: "balls-in-bins"; --steps-per-epoch), chosen uniformly; PLD accountant only
    /// (replace-one: between the antipodal pair and two hops through the record's absence).
    #[value(alias = "balls-in-bins")]
    RandomAllocation,
}

impl SamplingArg {
    /// The one-step scheme ([`Sampling`]); `None` for random allocation.
    fn scheme(self) -> Option<Sampling> {
        match self {
            SamplingArg::Poisson => Some(Sampling::Poisson),
            SamplingArg::Wor => Some(Sampling::WithoutReplacement),
            SamplingArg::None => Some(Sampling::None),
            SamplingArg::RandomAllocation => None,
        }
    }
}

/// `--accountant`: one of the reference accountants ([`Accountant`]), or all of them.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum AccountantArg {
    /// RDP with the improved conversion to (ε, δ) (Canonne, Kamath & Steinke 2020).
    Rdp,
    /// RDP with Mironov's 2017 conversion (the one seed 000 uses).
    RdpMironov,
    /// PLD: a certified [optimistic, pessimistic] bracket; the pessimistic end is the answer.
    Pld,
    /// Every one: rdp, rdp-mironov, pld.
    All,
}

/// What `epsilon` or `delta` asks, at the value of its flag (`--delta`, `--epsilon`) when
/// given: without `--event` the flag is required; with it, the event document may carry the
/// value instead (a conformance query line: [`event_query`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Asked {
    /// `dpclaims epsilon`: ε at δ.
    Epsilon(Option<f64>),
    /// `dpclaims delta`: δ at ε.
    Delta(Option<f64>),
}

impl Asked {
    /// The query at the flag's value.
    fn flagged(self) -> Result<Query, Error> {
        match self {
            Asked::Epsilon(Some(delta)) => Ok(Query::Epsilon { delta }),
            Asked::Delta(Some(epsilon)) => Ok(Query::Delta { epsilon }),
            Asked::Epsilon(None) => Err(Error::Input("give --delta".into())),
            Asked::Delta(None) => Err(Error::Input("give --epsilon".into())),
        }
    }
}

/// Answers what `asked` asks for the run `run` describes, printed; exit 2 when no selected
/// accountant covers it.
pub fn asked(run: RunArgs, asked: Asked) -> Result<u8, Error> {
    if let Some(path) = &run.event {
        let text = validate::read_input(Some(path))?;
        let (doc, query) = event_query(&text, asked)?;
        return answer_event(&doc, &run, query);
    }
    accountants(run, asked.flagged()?)
}

/// The event document and the query of an `--event` input: a document, or a conformance
/// query line as the suite prints it (its `id` and `settings` are ignored; its `delta` or `epsilon` field is
/// the value asked at when the flag is not given, and must equal the flag when both are). A
/// `delta` field asks for ε (`dpclaims epsilon`), an `epsilon` field for δ (`dpclaims delta`):
/// the other command is an error naming both.
pub fn event_query(
    text: &str,
    asked: Asked,
) -> Result<(crate::privacy::event::EventDoc, Query), Error> {
    use crate::privacy::event::{EventDoc, EventError};
    let mut v: serde_json::Value = match serde_json::from_str(text) {
        Ok(v) => v,
        // The document's own syntax error, as `EventDoc::parse` words it.
        Err(_) => {
            return Err(EventDoc::parse(text)
                .err()
                .map(Error::from)
                .unwrap_or_else(|| Error::Input("unreadable event document".into())));
        }
    };
    let (mut delta, mut epsilon) = (None, None);
    if let Some(obj) = v.as_object_mut() {
        obj.remove("id");
        // An accountant's settings (a conformance query's `settings`): the truth, and
        // dpclaims' bracket of it, do not depend on them.
        obj.remove("settings");
        let number = |x: serde_json::Value, name: &str| {
            x.as_f64().ok_or_else(|| {
                Error::Input(format!("the document's `{name}` is {x}, not a number"))
            })
        };
        if let Some(x) = obj.remove("delta") {
            delta = Some(number(x, "delta")?);
        }
        if let Some(x) = obj.remove("epsilon") {
            epsilon = Some(number(x, "epsilon")?);
        }
    }
    let doc = EventDoc::from_value(&v).map_err(|e: EventError| Error::from(e))?;
    let query = match (asked, delta, epsilon) {
        (_, Some(_), Some(_)) => {
            return Err(Error::Input(
                "the document has both `delta` and `epsilon`: a query asks one".into(),
            ));
        }
        (Asked::Epsilon(_), None, Some(e)) => {
            return Err(Error::Input(format!(
                "the document asks for delta (its `epsilon` field is {e}): use `dpclaims delta --event`, not `dpclaims epsilon`"
            )));
        }
        (Asked::Delta(_), Some(d), None) => {
            return Err(Error::Input(format!(
                "the document asks for epsilon (its `delta` field is {d}): use `dpclaims epsilon --event`, not `dpclaims delta`"
            )));
        }
        (Asked::Epsilon(Some(flag)), Some(field), None) if flag != field => {
            return Err(Error::Input(format!(
                "--delta {flag} and the document's `delta` field {field} differ: give one of them"
            )));
        }
        (Asked::Delta(Some(flag)), None, Some(field)) if flag != field => {
            return Err(Error::Input(format!(
                "--epsilon {flag} and the document's `epsilon` field {field} differ: give one of them"
            )));
        }
        (Asked::Epsilon(_), Some(delta), None) => Query::Epsilon { delta },
        (Asked::Delta(_), None, Some(epsilon)) => Query::Delta { epsilon },
        (asked, None, None) => match asked.flagged() {
            Ok(q) => q,
            Err(_) => {
                let (flag, field) = match asked {
                    Asked::Epsilon(_) => ("--delta", "delta"),
                    Asked::Delta(_) => ("--epsilon", "epsilon"),
                };
                return Err(Error::Input(format!(
                    "give {flag}, or a `{field}` field in the document"
                )));
            }
        },
    };
    Ok((doc, query))
}

/// Answers `query` for the run `run` describes (by flags or phases), printed; exit 2 when no
/// selected accountant covers it.
pub fn accountants(run: RunArgs, query: Query) -> Result<u8, Error> {
    if !run.phase.is_empty() {
        return schedule_accountant(&run, query);
    }
    let Some(sampling) = run.sampling.scheme() else {
        return random_allocation(&run, query);
    };
    if run.steps_per_epoch.is_some() || run.epochs.is_some() || run.selected.is_some() {
        return Err(Error::Input(format!(
            "--steps-per-epoch, --epochs and --selected describe a random-allocation run \
             (--sampling random-allocation); --sampling {sampling} takes --q and --steps"
        )));
    }
    let (Some(q), Some(sigma), Some(steps)) = (run.q, run.sigma, run.steps) else {
        return Err(Error::Input(
            "give --q, --sigma and --steps, or --event FILE.json".into(),
        ));
    };
    let relation = run.relation;
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
        return Err(crate::ParamError::new("orders", bad, "finite orders > 1").into());
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
        return Ok(2);
    }
    Ok(0)
}

/// `epsilon --phase q,sigma,steps ...`: a schedule, as the event document it is (a composition
/// of self-composed, Poisson-sampled Gaussians), answered by the PLD accountant.
fn schedule_accountant(run: &RunArgs, query: Query) -> Result<u8, Error> {
    use crate::privacy::event::{Event, EventDoc};
    let mut events = Vec::new();
    for (i, text) in run.phase.iter().enumerate() {
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        let bad = |why: &str| {
            Error::Input(format!(
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
        let sampling = match run.sampling.scheme() {
            Some(s @ (Sampling::Poisson | Sampling::None)) => s,
            _ => return Err(bad("schedules are supported for poisson and none sampling")),
        };
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
        neighbouring: run.relation,
        event: Event::Composed { events },
    };
    answer_event(&doc, run, query)
}

/// `--sampling random-allocation`: $E$ epochs of $t$ steps, every record in $k$ steps of
/// each epoch chosen uniformly (`--selected`, default 1), as the event document it is
/// (`SelfComposed(RandomAllocation(Gaussian, k, t), E)`), answered by the PLD accountant. $t$ is
/// `--steps-per-epoch` or $k/q$ (an integer), $E$ is `--epochs` or `--steps`$/t$ (a whole
/// number); what is not covered (the RDP accountants) is an error naming the flag. Under
/// replace-one the bracket is [`event_pld::replace_one_by_two_hops`]'s.
fn random_allocation(run: &RunArgs, query: Query) -> Result<u8, Error> {
    const FLAG: &str = "--sampling random-allocation";
    let input = |why: String| Err(Error::Input(format!("{FLAG}: {why}")));
    if !matches!(run.accountant, AccountantArg::Pld | AccountantArg::All) {
        return input(
            "answered by the PLD accountant only (--accountant pld or all): the RDP accountants \
             do not cover random allocation"
                .into(),
        );
    }
    if run.orders.is_some() {
        return input(
            "--orders sets the RDP accountants' orders, and they do not cover random allocation"
                .into(),
        );
    }
    let Some(sigma) = run.sigma else {
        return input("give --sigma".into());
    };
    crate::error::positive("sigma", sigma)?;
    let k = run.selected.unwrap_or(1);
    if k == 0 {
        return input("--selected 0: each record is in at least one step of an epoch".into());
    }
    let t = match (run.steps_per_epoch, run.q) {
        (Some(t), None) => t,
        (Some(t), Some(q)) if (q * t as f64 - k as f64).abs() <= 1e-9 * k as f64 => t,
        (Some(t), Some(q)) => {
            return input(format!(
                "--q {q} and --steps-per-epoch {t} disagree (each record is in {k} of the t \
                 steps of an epoch: q = {k}/t); give one of them"
            ));
        }
        (None, Some(q)) => {
            if !(q > 0.0 && q <= 1.0) {
                return Err(crate::ParamError::new("q", q, "a sampling rate in (0, 1]").into());
            }
            let steps = (k as f64 / q).round();
            if (q * steps - k as f64).abs() > 1e-9 * k as f64 {
                return input(format!(
                    "--q {q}: {k}/q = {} steps per epoch is not an integer; give \
                     --steps-per-epoch",
                    k as f64 / q
                ));
            }
            steps as u64
        }
        (None, None) => return input("give --steps-per-epoch (or --q = k/t)".into()),
    };
    if t == 0 {
        return input("--steps-per-epoch 0: an epoch has at least one step".into());
    }
    let epochs = match (run.epochs, run.steps) {
        (Some(e), None) => e,
        (Some(e), Some(s)) if e.checked_mul(t) == Some(s) => e,
        (Some(e), Some(s)) => {
            return input(format!(
                "--steps {s} is not --epochs {e} times {t} steps per epoch; give one of them"
            ));
        }
        (None, Some(s)) if s % t == 0 => s / t,
        (None, Some(s)) => {
            return input(format!(
                "--steps {s} is not a whole number of epochs of {t} steps; give --epochs"
            ));
        }
        (None, None) => return input("give --epochs (or --steps, a multiple of t)".into()),
    };
    if epochs == 0 {
        return input("no epochs (--epochs 0 or --steps 0): a run has at least one".into());
    }
    // k and t within range, as the walker checks them (an error names the field).
    crate::privacy::random_allocation::RandomAllocation::new(sigma, k, t)?;
    let doc = crate::privacy::event::EventDoc {
        neighbouring: run.relation,
        ..accounting::random_allocation_doc(sigma, k, t, epochs)
    };
    answer_event(&doc, run, query)
}

/// The PLD accountant's answer to an event document, printed.
fn answer_event(
    doc: &crate::privacy::event::EventDoc,
    run: &RunArgs,
    query: Query,
) -> Result<u8, Error> {
    if !matches!(run.accountant, AccountantArg::Pld | AccountantArg::All) {
        return Err(Error::Input(
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
    Ok(0)
}
