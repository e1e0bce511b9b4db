//! Detection thresholds: how large an error a claim's check can see.
//!
//! For every claim, two numbers at its default size (each claim run alone, as
//! `dpclaims check ID` runs it, seed [`crate::harness::DEFAULT_SEED`], family-wise level 0.999):
//!
//! - **of the bound**, $\kappa^\ast_b$: the smallest relative error of the bound that the harness
//!   reports violated. Moving the bound $B$ towards the measurement by $\kappa|B|$ (for an
//!   upper bound, $B(1-\kappa)$ when $B>0$) needs no new simulation: an `at-most` outcome with
//!   lower limit $L$ is violated exactly when $L>B-\kappa|B|$, so
//!   $\kappa^\ast_b=(B-L)/|B|$ (closed form, [`bound_threshold`]); `at-least`: $(U-B)/|B|$;
//!   `reproduces`: the distance from $v$ to the nearer end of the interval over $|v|$;
//!   `in`: the nearer of the two window ends. The claim's threshold is the smallest over its
//!   outcomes (one violated outcome is enough), tautological outcomes left out. Violation is
//!   strict, so $\kappa^\ast_b$ is an infimum: every larger $\kappa$ is caught.
//! - **of the algorithm**, $\kappa^\ast_a$: the smallest relative error $\kappa$ of the
//!   algorithm ([`crate::claim::RunSpec::perturbation`]: e.g. the noise std times $1-\kappa$
//!   for a privacy claim, $1+\kappa$ for a utility claim, as each claim states in
//!   [`crate::claim::ClaimInfo::perturbation`]) that the harness reports violated, by
//!   bisection on $\kappa\in\[0,\kappa_{\max}\]$ with a full run per step ([`algorithm_threshold`];
//!   it assumes the verdict is monotone in $\kappa$). The result is a bracket
//!   $(\kappa_{lo},\kappa_{hi}]$: $\kappa_{lo}$ not caught, $\kappa_{hi}$ caught.
//!
//! Bisection at default size is expensive, so `dpclaims detection [PATTERN]` computes the
//! table once and writes it to `docs/detection.json` (committed; it says how it was produced);
//! `dpclaims list --detection` and `report.md` read the copy compiled into the binary
//! (`dpclaims_papers::detection`).

use crate::Error;
use crate::claim::Claim;
use crate::harness::{CheckOptions, check};
use crate::verdict::{Outcome, Relation, Verdict};
use serde::{Deserialize, Serialize};

/// The format tag of a detection file.
pub const FORMAT: &str = "dpclaims-detection-1";

/// The smallest relative error of `o`'s bound that makes `o` violated (module documentation);
/// 0 when it is violated already, `None` when a relative error is undefined (bound 0 or not
/// finite, interval limit not finite).
pub fn bound_threshold(o: &Outcome) -> Option<f64> {
    let (l, u, b) = (o.measured.lower, o.measured.upper, o.bound);
    let rel = |gap: f64, scale: f64| {
        (scale != 0.0 && scale.is_finite() && gap.is_finite()).then(|| (gap / scale.abs()).max(0.0))
    };
    let min = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, None) => x,
        (None, y) => y,
    };
    match o.relation {
        Relation::AtMost | Relation::LowerLimitAtMost => rel(b - l, b),
        Relation::AtLeast => rel(u - b, b),
        Relation::Reproduces { .. } => min(rel(b - l, b), rel(u - b, b)),
        Relation::Within { lower, .. } => min(rel(b - l, b), rel(u - lower, lower)),
    }
}

/// The claim-level bound threshold: the smallest [`bound_threshold`] over `outcomes` that are
/// not tautologies, with the case it comes from.
pub fn claim_bound_threshold(outcomes: &[Outcome]) -> Option<(f64, String)> {
    outcomes
        .iter()
        .filter(|o| o.tautology.is_none())
        .filter_map(|o| bound_threshold(o).map(|k| (k, o.params.compact())))
        .min_by(|a, b| a.0.total_cmp(&b.0))
}

/// The algorithm threshold of one claim, as a bracket found by bisection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AlgorithmThreshold {
    /// What the perturbation changes ([`crate::claim::ClaimInfo::perturbation`]).
    pub perturbation: String,
    /// Largest $\kappa$ tried that was not reported violated.
    pub kappa_low: f64,
    /// Smallest $\kappa$ tried that was reported violated (`None`: not even $\kappa_{\max}$).
    pub kappa_high: Option<f64>,
    /// $\kappa_{\max}$, the top of the search.
    pub kappa_max: f64,
    /// Bisection steps after the end points.
    pub steps: u32,
    /// The smallest $\kappa$ whose run failed (an error: e.g. a PLD grid too fine for noise that
    /// small), when the run at $\kappa_{\max}$ failed: the search's top was then the largest
    /// $\kappa$ found to run, `kappa_low` when nothing below it was caught.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed_above: Option<f64>,
}

/// One claim's row of the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Detection {
    /// Claim id.
    pub claim: String,
    /// $\kappa^\ast_b$ (`None`: undefined, e.g. the claim is known false or every outcome is a
    /// tautology).
    pub bound_kappa: Option<f64>,
    /// The case the bound threshold comes from.
    pub bound_case: Option<String>,
    /// $\kappa^\ast_a$, where the claim perturbs its algorithm.
    pub algorithm: Option<AlgorithmThreshold>,
    /// Why a number is missing, or what else to know.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
}

impl Detection {
    /// The threshold of the claim: the smaller of the two (the algorithm's upper end).
    pub fn threshold(&self) -> Option<f64> {
        let a = self.algorithm.as_ref().and_then(|a| a.kappa_high);
        match (self.bound_kappa, a) {
            (Some(x), Some(y)) => Some(x.min(y)),
            (x, None) => x,
            (None, y) => y,
        }
    }
}

/// A detection file (`docs/detection.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DetectionFile {
    /// [`FORMAT`].
    pub format: String,
    /// How the file was produced (the command line) and what its numbers mean.
    pub produced_by: String,
    /// Run seed.
    pub seed: u64,
    /// Family-wise level of each claim's run.
    pub confidence: f64,
    /// The size: each claim's default cases (or the cap given).
    pub size: String,
    /// One row per claim, in registry order.
    pub claims: Vec<Detection>,
}

impl DetectionFile {
    /// The row of claim `id`.
    pub fn get(&self, id: &str) -> Option<&Detection> {
        self.claims.iter().find(|d| d.claim == id)
    }

    /// Parses a detection file, checking its format tag.
    pub fn parse(text: &str) -> Result<Self, Error> {
        let file: DetectionFile = serde_json::from_str(text)
            .map_err(|e| Error::Input(format!("not a dpclaims detection file: {e}")))?;
        if file.format != FORMAT {
            return Err(Error::Input(format!(
                "detection file format {:?}, expected {FORMAT:?}",
                file.format
            )));
        }
        Ok(file)
    }
}

/// How [`detect`] runs.
#[derive(Debug, Clone)]
pub struct DetectOptions {
    /// Run seed.
    pub seed: u64,
    /// Family-wise level of each claim's run.
    pub confidence: f64,
    /// Caps every case's trials (`None`: the default size).
    pub max_trials: Option<u64>,
    /// Bisection steps for the algorithm threshold (0: bound thresholds only).
    pub steps: u32,
    /// Top of the algorithm search, below 1.
    pub kappa_max: f64,
}

impl Default for DetectOptions {
    fn default() -> Self {
        Self {
            seed: crate::harness::DEFAULT_SEED,
            confidence: crate::harness::DEFAULT_CONFIDENCE,
            max_trials: None,
            steps: 6,
            kappa_max: 0.99,
        }
    }
}

fn run(claim: &dyn Claim, opts: &DetectOptions, kappa: f64) -> Result<Vec<Outcome>, Error> {
    check(
        &[claim],
        &CheckOptions {
            seed: opts.seed,
            confidence: opts.confidence,
            max_trials: opts.max_trials,
            perturbation: kappa,
            ..CheckOptions::default()
        },
    )
}

/// Whether a run is caught: some outcome violated that is not a tautology (an outcome true by
/// construction says nothing about the claim, as for the bound threshold).
fn caught(outcomes: &[Outcome]) -> bool {
    outcomes
        .iter()
        .any(|o| o.verdict == Verdict::Violated && o.tautology.is_none())
}

/// The algorithm threshold of `claim` by bisection (`None` when the claim does not perturb its
/// algorithm, or is caught already unperturbed).
pub fn algorithm_threshold(
    claim: &dyn Claim,
    opts: &DetectOptions,
) -> Result<Option<AlgorithmThreshold>, Error> {
    let Some(what) = claim.info().perturbation else {
        return Ok(None);
    };
    if !(opts.kappa_max > 0.0 && opts.kappa_max < 1.0) {
        return Err(Error::Input(format!(
            "--kappa-max {} is out of range: expected a number in (0, 1)",
            opts.kappa_max
        )));
    }
    let mut t = AlgorithmThreshold {
        perturbation: what.to_string(),
        kappa_low: 0.0,
        kappa_high: None,
        kappa_max: opts.kappa_max,
        steps: opts.steps,
        failed_above: None,
    };
    if caught(&run(claim, opts, 0.0)?) {
        t.kappa_high = Some(0.0);
        return Ok(Some(t));
    }
    // The top: kappa_max, or where its run fails (a perturbation so large that the claim cannot
    // be measured), the largest kappa found to run by bisection between 0 (which ran) and it.
    // Only a parameter error (e.g. a grid too fine) lowers the top; a NaN or any other error is
    // a defect, and fails the row.
    let (top, top_caught) = match run(claim, opts, opts.kappa_max) {
        Ok(o) => (opts.kappa_max, caught(&o)),
        Err(Error::Param { .. }) => {
            let (mut ok, mut ok_caught, mut bad) = (0.0, false, opts.kappa_max);
            for _ in 0..opts.steps {
                let mid = 0.5 * (ok + bad);
                match run(claim, opts, mid) {
                    Ok(o) => {
                        ok = mid;
                        ok_caught = caught(&o);
                    }
                    Err(Error::Param { .. }) => bad = mid,
                    Err(e) => return Err(e),
                }
            }
            t.failed_above = Some(bad);
            (ok, ok_caught)
        }
        Err(e) => return Err(e),
    };
    if !top_caught {
        t.kappa_low = top;
        return Ok(Some(t));
    }
    let (mut lo, mut hi) = (0.0, top);
    for _ in 0..opts.steps {
        let mid = 0.5 * (lo + hi);
        if caught(&run(claim, opts, mid)?) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    t.kappa_low = lo;
    t.kappa_high = Some(hi);
    Ok(Some(t))
}

/// Both thresholds of one claim (`progress`: a line on stderr when done).
pub fn detect_one(claim: &dyn Claim, opts: &DetectOptions) -> Result<Detection, Error> {
    let info = claim.info();
    if info.known_false {
        return Ok(Detection {
            claim: info.id.to_string(),
            bound_kappa: None,
            bound_case: None,
            algorithm: None,
            note: "known false as printed: violated unperturbed".into(),
        });
    }
    let outcomes = run(claim, opts, 0.0)?;
    let bound = claim_bound_threshold(&outcomes);
    let algorithm = if opts.steps > 0 {
        algorithm_threshold(claim, opts)?
    } else {
        None
    };
    let mut note = String::new();
    if bound.is_none() {
        note = "no outcome with a defined relative error of the bound".into();
    }
    if info.perturbation.is_none() {
        if !note.is_empty() {
            note.push_str("; ");
        }
        note.push_str(
            "no algorithm perturbation: no algorithm parameter to perturb (a closed form against a closed form, an inequality checked on drawn instances, a statistic of the data alone, or a rate that a constant relative error leaves unchanged)",
        );
    }
    Ok(Detection {
        claim: info.id.to_string(),
        bound_kappa: bound.as_ref().map(|b| b.0),
        bound_case: bound.map(|b| b.1),
        algorithm,
        note,
    })
}

/// The detection table of `claims`, one row each (each claim run alone).
pub fn detect(
    claims: &[&dyn Claim],
    opts: &DetectOptions,
    progress: bool,
) -> Result<Vec<Detection>, Error> {
    claims
        .iter()
        .map(|c| {
            let started = std::time::Instant::now();
            let d = detect_one(*c, opts)?;
            if progress {
                eprintln!(
                    "{}: bound {:?}, algorithm {:?} ({:.0} s)",
                    d.claim,
                    d.bound_kappa,
                    d.algorithm.as_ref().map(|a| (a.kappa_low, a.kappa_high)),
                    started.elapsed().as_secs_f64()
                );
            }
            Ok(d)
        })
        .collect()
}

fn kappa(x: Option<f64>) -> String {
    x.map_or("-".to_string(), |k| format!("{k:.4}"))
}

/// The algorithm threshold as text: `(lo, hi]`, `> max` or `-`.
pub fn algorithm_text(a: Option<&AlgorithmThreshold>) -> String {
    match a {
        None => "-".into(),
        Some(a) => match a.kappa_high {
            Some(h) => format!("({:.3}, {:.3}]", a.kappa_low, h),
            None => match a.failed_above {
                Some(f) => format!("> {:.3} (runs fail at {f:.3})", a.kappa_low),
                None => format!("> {:.2}", a.kappa_max),
            },
        },
    }
}

/// `dpclaims list --detection`: one row per claim of `claims`, sorted by threshold (smallest
/// first; claims without one last), from `file`.
pub fn table(claims: &[&dyn Claim], file: Option<&DetectionFile>) -> String {
    let mut rows: Vec<(Option<f64>, [String; 5])> = claims
        .iter()
        .map(|c| {
            let id = c.info().id;
            match file.and_then(|f| f.get(id)) {
                Some(d) => (
                    d.threshold(),
                    [
                        id.to_string(),
                        kappa(d.threshold()),
                        kappa(d.bound_kappa),
                        algorithm_text(d.algorithm.as_ref()),
                        d.algorithm
                            .as_ref()
                            .map(|a| a.perturbation.clone())
                            .unwrap_or_else(|| d.note.clone()),
                    ],
                ),
                None => (
                    None,
                    [
                        id.to_string(),
                        "-".into(),
                        "-".into(),
                        "-".into(),
                        "not measured (run `dpclaims detection ID`)".into(),
                    ],
                ),
            }
        })
        .collect();
    rows.sort_by(|a, b| match (a.0, b.0) {
        (Some(x), Some(y)) => x.total_cmp(&y),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    });
    let header = [
        "claim".to_string(),
        "threshold".into(),
        "bound k*".into(),
        "algorithm k*".into(),
        "perturbation / note".into(),
    ];
    let mut all = vec![header];
    all.extend(rows.into_iter().map(|r| r.1));
    let mut out = String::new();
    if let Some(f) = file {
        out.push_str(&format!(
            "detection thresholds (seed {}, level {}, {}; {})\n",
            f.seed, f.confidence, f.size, f.produced_by
        ));
    }
    out.push_str(&crate::fmt::aligned(&all));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claim::{ClaimInfo, Measurement, Mutant, RunSpec, Statistic};
    use crate::params::Params;
    use dpclaims_accounting::ParamError;

    const SHRUNK: Mutant = Mutant {
        name: "shrunk",
        description: "the bound halved",
    };

    /// Exact value 1 + 4 kappa against bound 2: bound threshold 1/2, algorithm threshold 1/4.
    struct Known;

    static KNOWN: ClaimInfo = ClaimInfo {
        id: "toy.known",
        paper: "none",
        result: "none",
        statement: "1 + 4 kappa <= 2",
        mutants: &[SHRUNK],
        known_false: false,
        tautologies: &[],
        perturbation: Some("the value times 1 + 4 kappa"),
    };

    impl Claim for Known {
        fn info(&self) -> &ClaimInfo {
            &KNOWN
        }
        fn cases(&self) -> Vec<Params> {
            vec![crate::params! { "x" => 1 }]
        }
        fn measure(&self, case: &Params, run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError> {
            Ok(vec![Measurement {
                params: case.clone(),
                bound: if run.mutant.is_some() { 0.5 } else { 2.0 },
                relation: Relation::AtMost,
                statistic: Statistic::Exact {
                    value: 1.0 + 4.0 * run.perturbation,
                },
            }])
        }
    }

    #[test]
    fn a_claim_with_known_thresholds() {
        let opts = DetectOptions {
            steps: 10,
            ..DetectOptions::default()
        };
        let d = detect_one(&Known, &opts).unwrap();
        assert_eq!(d.bound_kappa, Some(0.5));
        let a = d.algorithm.as_ref().unwrap();
        let hi = a.kappa_high.unwrap();
        assert!(a.kappa_low <= 0.25 && 0.25 < hi, "{a:?}");
        assert!(hi - a.kappa_low <= a.kappa_max / 1024.0 + 1e-12, "{a:?}");
        assert!((d.threshold().unwrap() - hi).abs() < 1e-15);
        let file = DetectionFile {
            format: FORMAT.into(),
            produced_by: "test".into(),
            seed: 1,
            confidence: 0.999,
            size: "default".into(),
            claims: vec![d],
        };
        let text = serde_json::to_string(&file).unwrap();
        assert_eq!(DetectionFile::parse(&text).unwrap(), file);
        let t = table(&[&Known], Some(&file));
        assert!(t.contains("toy.known"), "{t}");
    }

    /// [`Known`] whose run fails (an error) for kappa above `FAILS_ABOVE[i]`.
    struct Fragile(usize);

    const FAILS_ABOVE: [f64; 2] = [0.6, 0.2];

    impl Claim for Fragile {
        fn info(&self) -> &ClaimInfo {
            &KNOWN
        }
        fn cases(&self) -> Vec<Params> {
            Known.cases()
        }
        fn measure(&self, case: &Params, run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError> {
            if run.perturbation > FAILS_ABOVE[self.0] {
                return Err(ParamError::new(
                    "kappa",
                    run.perturbation,
                    "a kappa the toy can run",
                ));
            }
            Known.measure(case, run)
        }
    }

    /// A run that fails at large kappa lowers the top of the search instead of failing the row
    /// (multipass.thm2.dp's PLD refused grids for noise that small).
    #[test]
    fn a_run_that_fails_at_large_kappa_lowers_the_top() {
        let opts = DetectOptions {
            steps: 10,
            ..DetectOptions::default()
        };
        // Fails above 0.6, caught above 0.25: the threshold is found below the failures.
        let a = algorithm_threshold(&Fragile(0), &opts).unwrap().unwrap();
        let hi = a.kappa_high.unwrap();
        assert!(
            a.kappa_low <= 0.25 && 0.25 < hi && hi - a.kappa_low < 0.01,
            "{a:?}"
        );
        let f = a.failed_above.unwrap();
        assert!(f > 0.6 && f < 0.61, "{a:?}");
        // Fails above 0.2, never caught where it runs: a lower limit at the measurable top.
        let a = algorithm_threshold(&Fragile(1), &opts).unwrap().unwrap();
        assert!(a.kappa_high.is_none());
        assert!(a.kappa_low <= 0.2 && a.kappa_low > 0.19, "{a:?}");
        assert!(
            algorithm_text(Some(&a)).contains("runs fail at 0.20"),
            "{}",
            algorithm_text(Some(&a))
        );
    }

    /// [`Known`] with every outcome declared a tautology.
    struct AllTautological;

    static ALL_TAUTOLOGICAL: ClaimInfo = ClaimInfo {
        id: "toy.tautological",
        tautologies: &[crate::claim::Tautology {
            outcomes: &[],
            reason: "a test",
        }],
        ..KNOWN
    };

    impl Claim for AllTautological {
        fn info(&self) -> &ClaimInfo {
            &ALL_TAUTOLOGICAL
        }
        fn cases(&self) -> Vec<Params> {
            Known.cases()
        }
        fn measure(&self, case: &Params, run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError> {
            Known.measure(case, run)
        }
    }

    /// A violated tautology is no detection, for the algorithm threshold as for the bound's.
    #[test]
    fn tautologies_do_not_count_as_caught() {
        let d = detect_one(&AllTautological, &DetectOptions::default()).unwrap();
        assert_eq!(d.bound_kappa, None);
        assert_eq!(d.algorithm.unwrap().kappa_high, None);
    }

    #[test]
    fn bound_thresholds_in_closed_form() {
        let o = |lower: f64, upper: f64, bound: f64, relation: Relation| Outcome {
            claim: "t".into(),
            params: Params::default(),
            bound,
            measured: crate::verdict::tests::est(lower, upper),
            relation,
            verdict: Verdict::Respected,
            tightness: 0.0,
            seed: 0,
            family_confidence: 0.999,
            mutant: None,
            known_false: false,
            tautology: None,
            design: Vec::new(),
        };
        let k = |x: &Outcome| bound_threshold(x).unwrap();
        assert!((k(&o(0.6, 0.8, 1.0, Relation::AtMost)) - 0.4).abs() < 1e-12);
        assert!((k(&o(1.2, 1.5, 1.0, Relation::AtLeast)) - 0.5).abs() < 1e-12);
        assert_eq!(k(&o(1.2, 1.5, 1.0, Relation::AtMost)), 0.0);
        let r = Relation::Reproduces { tolerance: 0.1 };
        assert!((k(&o(0.95, 1.02, 1.0, r)) - 0.02).abs() < 1e-12);
        let w = Relation::Within {
            lower: -0.65,
            slack: 0.0,
        };
        // Upper end -0.35 moved down to L = -0.6: 0.25/0.35; lower end up to U = -0.5: 0.15/0.65.
        assert!((k(&o(-0.6, -0.5, -0.35, w)) - 0.15 / 0.65).abs() < 1e-12);
        assert_eq!(bound_threshold(&o(0.1, 0.2, 0.0, Relation::AtMost)), None);
    }
}
