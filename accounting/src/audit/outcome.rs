//! What an audit answers: its settings ([`AuditOptions`]), the verdict on a row
//! ([`AuditVerdict`]), the Monte Carlo limit ([`MonteCarlo`]), the plot's data ([`Curves`]) and
//! the whole audit of a row ([`Audit`]).

use super::rows::row_name;
use crate::privacy::pld::PldOptions;
use crate::privacy::{Neighbouring, Sampling};
use serde::Serialize;

/// Audit settings.
#[derive(Debug, Clone, Copy)]
pub struct AuditOptions {
    /// Relative tolerance for `sound-tight`.
    pub tolerance: f64,
    /// Simulated steps (trials × steps per trial) of a row's main Monte Carlo run when it is
    /// the witness that can decide the row; a tenth of it when the references decide alone.
    pub max_steps: u64,
    /// If set, the main run's trials come from this many seconds at the throughput measured
    /// in the pilot (machine-dependent; the JSON reports the trials, and `trials` with the same
    /// `max_steps`, which sizes the pilot, reproduces the run).
    pub budget_seconds: Option<f64>,
    /// If set, the main run's paths (one simulated pair, over its strata; overrides both
    /// budgets).
    pub trials: Option<u64>,
    /// Importance sampling (a pilot run chooses the proposal); `false`: plain Monte Carlo.
    pub importance: bool,
    /// Audit by Monte Carlo alone (no PLD references).
    pub no_reference: bool,
    /// Keep the data of a δ(ε) plot per row ([`Audit::curves`]; the Monte Carlo is then also
    /// evaluated on nine more ε from the same paths).
    pub plot: bool,
    /// Seed of the Monte Carlo streams.
    pub seed: u64,
    /// Family-wise confidence of the Monte Carlo bounds over all rows.
    pub confidence: f64,
    /// Discretisation of the PLD references (focused on each row's $\delta$).
    pub pld: PldOptions,
}

impl Default for AuditOptions {
    fn default() -> Self {
        Self {
            tolerance: 0.05,
            max_steps: 200_000_000,
            budget_seconds: None,
            trials: None,
            importance: true,
            no_reference: false,
            plot: false,
            seed: 1,
            confidence: 0.999,
            pld: PldOptions::default(),
        }
    }
}

impl AuditOptions {
    /// Checks the settings a user gives: `tolerance` finite and $\ge0$, `confidence` in (0, 1),
    /// `max_steps` $\ge1000$, `trials` $\ge200$, `budget_seconds` $>0$, and the PLD settings
    /// ([`PldOptions::check`]). The error names the setting (`max_steps`: the CLI spells it
    /// `--max-steps`, Python `max_steps=`).
    pub fn check(&self) -> Result<(), crate::ParamError> {
        use crate::ParamError;
        if !(self.tolerance >= 0.0 && self.tolerance.is_finite()) {
            return Err(ParamError::new(
                "tolerance",
                self.tolerance,
                "a number >= 0",
            ));
        }
        if !(self.confidence > 0.0 && self.confidence < 1.0) {
            return Err(ParamError::new(
                "confidence",
                self.confidence,
                "a number in (0, 1)",
            ));
        }
        if self.max_steps < 1000 {
            return Err(ParamError::new(
                "max_steps",
                self.max_steps,
                "at least 1000",
            ));
        }
        if let Some(n) = self.trials.filter(|n| *n < 200) {
            return Err(ParamError::new("trials", n, "at least 200"));
        }
        if let Some(b) = self.budget_seconds.filter(|b| !(*b > 0.0 && b.is_finite())) {
            return Err(ParamError::new("budget_seconds", b, "a number > 0"));
        }
        self.pld.check()
    }
}

/// The verdict on a row's claimed $(\epsilon,\delta)$ (module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum AuditVerdict {
    /// Refuted: below the lower reference, or the Monte Carlo limit on $\delta$ exceeds the claim.
    Unsound,
    /// At or above the upper reference, by at most the tolerance.
    SoundTight,
    /// Above the upper reference by more than the tolerance.
    SoundLoose,
    /// Not refuted, and not certified: below the upper reference, or no reference computed.
    Unverified,
}

impl AuditVerdict {
    /// The kebab-case name (as in the JSON output).
    pub fn as_str(&self) -> &'static str {
        match self {
            AuditVerdict::Unsound => "unsound",
            AuditVerdict::SoundTight => "sound-tight",
            AuditVerdict::SoundLoose => "sound-loose",
            AuditVerdict::Unverified => "unverified",
        }
    }
}

/// The Monte Carlo lower confidence bound on δ(claimed ε).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MonteCarlo {
    /// The (untruncated, importance-weighted) mean estimate of δ(claimed ε); with strata, of
    /// the part of δ in the strata sampled (those the pilot left out are not counted, so it
    /// may be below δ).
    pub delta_mean: f64,
    /// The one-sided lower confidence limit on δ(claimed ε).
    pub delta_lower: f64,
    /// Paths of the main run, over all its strata (the pilot's are not used in the estimate).
    pub trials: u64,
    /// One-sided level of the limit (the row's level: one pair is simulated, chosen by the
    /// pilot).
    pub confidence: f64,
    /// Seed of the run ([`AuditOptions::seed`]).
    pub seed: u64,
    /// The simulated pair (the one of the row's realised pairs the pilot chose).
    pub pair: String,
    /// The importance-sampling proposal: `plain`, the tilted rate, shift and mixture weight, a
    /// single jump, or per stratum of the record's draws K its probability, paths and proposal.
    pub proposal: String,
    /// The limit: KL-Chernoff and empirical Bernstein for values in [0, bound]; with strata,
    /// Bernstein over the strata and KL-Chernoff per stratum.
    pub method: &'static str,
    /// The values are truncated at this level for the limit (twice the largest pilot value,
    /// at most the largest weighted value 1 / (1 - mixture weight); with strata, the largest of
    /// theirs); `delta_mean` is untruncated.
    pub bound: f64,
}

/// The audit of one row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Audit {
    /// The row's line number ([`Row::line`](super::Row::line)).
    pub line: usize,
    /// The row's name ([`Row::name`](super::Row::name)).
    pub name: String,
    /// The row's batch sampling.
    #[serde(serialize_with = "row_name")]
    pub sampling: Sampling,
    /// The row's neighbouring relation.
    pub relation: Neighbouring,
    /// The row's sampling rate ([`Row::q`](super::Row::q)).
    pub q: f64,
    /// Random allocation with $k>1$: the steps $k$ of each epoch a record is in (`selected`;
    /// then $q=k/t$). Absent for $k=1$ and the other samplings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selected: Option<u64>,
    /// The row's noise multiplier ([`Row::sigma`](super::Row::sigma)).
    pub sigma: f64,
    /// The row's number of steps.
    pub steps: u64,
    /// The claimed $\delta$.
    pub delta: f64,
    /// The claimed $\epsilon$ (from the row or the `--command` accountant).
    pub claimed_epsilon: f64,
    /// Certified upper reference ε (`None` with `--no-reference`).
    pub upper_reference: Option<f64>,
    /// How the upper reference was computed.
    pub upper_method: Option<&'static str>,
    /// Certified lower reference ε (`None` with `--no-reference`).
    pub lower_reference: Option<f64>,
    /// How the lower reference was computed.
    pub lower_method: Option<&'static str>,
    /// The plot's data (`--plot`).
    #[serde(skip)]
    pub curves: Option<Curves>,
    /// The Monte Carlo limit of the simulated pair with the largest lower limit.
    pub monte_carlo: MonteCarlo,
    /// The verdict.
    pub verdict: AuditVerdict,
    /// claimed ε / upper reference.
    pub ratio: Option<f64>,
    /// Why the verdict is what it is, in words (empty for `sound-tight`).
    pub reasons: Vec<String>,
    /// What the references changed or cannot say: a grid coarser than asked for (the point
    /// budget), a lower reference of 0 that carries no information, an infinite upper one.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// A Monte Carlo estimate of δ(ε) at one ε (of the simulated pair and strata the pilot chose).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct McPoint {
    /// The $\epsilon$ at which $\delta(\epsilon)$ is estimated.
    pub epsilon: f64,
    /// The mean estimate of $\delta(\epsilon)$ (as [`MonteCarlo::delta_mean`]).
    pub mean: f64,
    /// The lower confidence limit on $\delta(\epsilon)$.
    pub lower: f64,
}

/// What `audit --plot` draws for a row: δ(ε) of the references and Monte Carlo lower limits.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Curves {
    /// (ε, δ) of the upper reference.
    pub upper: Vec<(f64, f64)>,
    /// (ε, δ) of the lower reference.
    pub lower: Vec<(f64, f64)>,
    /// Monte Carlo lower limits (each at the row's per-pair level), the claimed ε first.
    pub monte_carlo: Vec<McPoint>,
}
