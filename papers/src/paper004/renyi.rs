//! Claims `renyi_discretization.*`: Theorem 12 of Ganesh & Talwar (2020), seed 004
//! (THEOREMS.md §5), checked by the path likelihood ratio of the fine-step processes.
//!
//! $M$ paths of $\psi$ (gradient frozen at each step's anchor) are drawn; along each, the
//! log-likelihood ratio $\ell$ against $\psi'$ (fine gradient, the diffusion as $k\to\infty$) is
//! accumulated until the stop rule fires. The path divergence $D_\alpha=\frac1{\alpha-1}\ln\mathbb E[e^{(\alpha-1)\ell}]$
//! ($\mathbb E\ell$ for $\alpha=1$) bounds the divergence of the final iterates (Fact 4).

use dpclaims_core::claim::{Claim, ClaimInfo, Measurement, Mutant, RunSpec, Statistic};
use dpclaims_core::params;
use dpclaims_core::params::Params;
use dpclaims_core::verdict::Relation;
use dpclaims_empirical::langevin::{
    DiagonalQuadratic, LogCoshQuadratic, Potential, StopRule, path_log_ratio, ula_movement,
};
use dpclaims_empirical::rng::StreamKey;
use dpclaims_empirical::runner::{run_blocks, trial_range};
use dpclaims_empirical::stats::MeanAcc;
use dpclaims_theorems::{ParamError, error, renyi_discretization as bounds};

const PAPER: &str = "004_eaab97274611faab.txt — Ganesh, Talwar (2020), arXiv 2010.14658";

const NO_STOP: Mutant = Mutant {
    name: "no-stop",
    description: "algorithm side: the paths are never stopped, while the bound still uses the radius r",
};
const KL_PATH_THRESHOLD: Mutant = Mutant {
    name: "ula-step-1.07x",
    description: "algorithm side, threshold mutant: the simulated ULA step size times 1 + 0.07 while the closed-form path KL keeps eta; the algorithm detection threshold (kappa* in (0, 0.062] at seed 1, default size, 4 bisection steps) rounded up; runs at the default size (Claim::mutant_trials)",
};
const ESTIMATOR_VARIANCE: Mutant = Mutant {
    name: "estimator-variance-eta-over-k",
    description: "measurement side: the likelihood ratio computed with noise variance eta/k instead of 2 eta/k",
};

/// The case's potential, start, schedule and stop rule.
struct Case {
    potential: Box<dyn PotentialDyn>,
    smoothness: f64,
    x0: Vec<f64>,
    eta: f64,
    steps: u64,
    k: u64,
    stop: StopRule,
    trials: u64,
}

/// Object-safe wrapper so a case can hold either potential.
trait PotentialDyn: Sync {
    fn ratio(
        &self,
        case: &Case,
        variance_scale: f64,
        rng: &mut dpclaims_empirical::rng::TrialRng,
        ws: &mut [Vec<f64>; 4],
    ) -> f64;
    /// Lemma 13's (max movement, max gradient norm) of one ULA path, `k` sub-grid points per step.
    fn movement(
        &self,
        case: &Case,
        rng: &mut dpclaims_empirical::rng::TrialRng,
        ws: &mut [Vec<f64>; 4],
    ) -> (f64, f64);
    fn dim(&self) -> usize;
}

impl<P: Potential> PotentialDyn for P {
    fn ratio(
        &self,
        case: &Case,
        variance_scale: f64,
        rng: &mut dpclaims_empirical::rng::TrialRng,
        ws: &mut [Vec<f64>; 4],
    ) -> f64 {
        path_log_ratio(
            self,
            &case.x0,
            case.eta,
            case.steps,
            case.k,
            case.stop,
            variance_scale,
            rng,
            ws,
        )
    }
    fn movement(
        &self,
        case: &Case,
        rng: &mut dpclaims_empirical::rng::TrialRng,
        ws: &mut [Vec<f64>; 4],
    ) -> (f64, f64) {
        ula_movement(self, &case.x0, case.eta, case.steps, case.k, rng, ws)
    }
    fn dim(&self) -> usize {
        Potential::dim(self)
    }
}

impl Case {
    fn parse(p: &Params) -> Result<Self, ParamError> {
        // `x0` is the start point, or one number repeated `d` times when `d` is given.
        let mut x0 = p.f64_list("x0")?;
        if p.contains("d") {
            let d = p.u64("d")?;
            if !(1..=100_000).contains(&d) || x0.len() != 1 {
                return Err(ParamError::new(
                    "d",
                    d,
                    "an integer in [1, 10^5], with a single number as x0",
                ));
            }
            x0 = vec![x0[0]; d as usize];
        }
        let d = x0.len();
        let (potential, smoothness): (Box<dyn PotentialDyn>, f64) =
            match p.choice("potential", &["logcosh", "quadratic"])?.as_str() {
                "logcosh" => (Box::new(LogCoshQuadratic { d }), 2.0),
                _ => {
                    let h = error::positive("h", p.f64("h")?)?;
                    (Box::new(DiagonalQuadratic { h: vec![h; d] }), h)
                }
            };
        let eta = error::positive("eta", p.f64("eta")?)?;
        let steps = error::at_least("T", p.u64("T")?, 1)?;
        let k = error::at_least("k", p.u64("k")?, 1)?;
        if steps * k > 10_000_000 {
            return Err(ParamError::new("k", k, "T * k <= 10^7 sub-steps"));
        }
        let stop = match p.choice("stop", &["never", "printed", "prev"])?.as_str() {
            "never" => StopRule::Never,
            kind => {
                let r = error::positive("r", p.f64("r")?)?;
                if kind == "printed" {
                    StopRule::Printed(r)
                } else {
                    StopRule::Previous(r)
                }
            }
        };
        let trials = p.u64("trials")?;
        if trials < 2 {
            return Err(ParamError::new("trials", trials, "an integer >= 2"));
        }
        Ok(Self {
            potential,
            smoothness,
            x0,
            eta,
            steps,
            k,
            stop,
            trials,
        })
    }

    /// Per block of trials, one accumulator per order: $\ell$ for $\alpha=1$, $e^{(\alpha-1)\ell}$ otherwise.
    fn simulate(
        &self,
        claim: &str,
        case: &Params,
        run: RunSpec<'_>,
        alphas: &[f64],
        variance_scale: f64,
    ) -> Vec<Vec<MeanAcc>> {
        let key = StreamKey::new(
            run.seed,
            &[claim, &dpclaims_core::claim::stream_label(case, &["alpha"])],
        );
        let d = self.potential.dim();
        let blocks = run_blocks(
            trial_range(self.trials, run.shard),
            || {
                (
                    [vec![0.0; d], vec![0.0; d], vec![0.0; d], vec![0.0; d]],
                    vec![MeanAcc::new(); alphas.len()],
                )
            },
            |ws, accs, i| {
                let l = self
                    .potential
                    .ratio(self, variance_scale, &mut key.trial(i), ws);
                for (acc, a) in accs.iter_mut().zip(alphas) {
                    acc.push(if *a == 1.0 { l } else { ((a - 1.0) * l).exp() });
                }
            },
        );
        (0..alphas.len())
            .map(|j| blocks.iter().map(|b| b[j].clone()).collect())
            .collect()
    }
}

fn statistic(alpha: f64, blocks: Vec<MeanAcc>) -> Statistic {
    if alpha == 1.0 {
        Statistic::Mean { blocks }
    } else {
        Statistic::RenyiMoment { blocks, alpha }
    }
}

/// The claim `renyi_discretization.thm12` (its statement and source are in its [`ClaimInfo`]).
pub struct Theorem12;
/// The claim `renyi_discretization.kl_path` (its statement and source are in its [`ClaimInfo`]).
pub struct PathKl;

static THEOREM12_INFO: ClaimInfo = ClaimInfo {
    id: "renyi_discretization.thm12",
    paper: PAPER,
    result: "Theorem 12 [reconstructed, THEOREMS.md]",
    statement: "stopped discrete vs stopped continuous Langevin paths: D_alpha <= alpha L^2 r^2 T eta / 4 (independent of k) [weak check, detection threshold of the bound 0.69 (a bound that much smaller is still respected), of the algorithm above 0.99 (paths stopped at twice the radius are still respected); docs/detection.json]",
    mutants: &[NO_STOP],
    known_false: false,
    tautologies: &[],
    perturbation: Some(
        "algorithm side: the simulated paths' stopping radius times 1 + kappa while the bound keeps r",
    ),
};

impl Claim for Theorem12 {
    fn info(&self) -> &'static ClaimInfo {
        &THEOREM12_INFO
    }

    fn cases(&self) -> Vec<Params> {
        // (i) log-cosh, d = 2; r = 0.1 stops within a few sub-steps, and unstopped paths (mutant
        // no-stop) exceed its bound.
        let mut cases: Vec<Params> = [0.1, 0.25, 0.5, 1.0]
            .iter()
            .map(|r| {
                params! {
                    "potential" => "logcosh", "x0" => [2.0, -1.0], "eta" => 0.05, "T" => 20, "k" => 10,
                    "stop" => "prev", "r" => *r, "alpha" => [1.0, 2.0, 4.0], "trials" => 200_000,
                }
            })
            .collect();
        // The printed stop rule (anchor floor((j+1)/k) eta) as its own labelled reading.
        cases.push(params! {
            "potential" => "logcosh", "x0" => [2.0, -1.0], "eta" => 0.05, "T" => 20, "k" => 10,
            "stop" => "printed", "r" => 0.25, "alpha" => [1.0, 2.0, 4.0], "trials" => 200_000,
        });
        // (iii) the near-tight quadratic instance: H = I, d = 200 (r = 2.2 = 1.1 sqrt(2 eta d)).
        cases.extend([2.2, 3.0].iter().map(|r| {
            params! {
                "potential" => "quadratic", "h" => 1.0, "d" => 200, "x0" => 0.0, "eta" => 0.01, "T" => 10, "k" => 10,
                "stop" => "prev", "r" => *r, "alpha" => [1.0, 2.0, 4.0], "trials" => 20_000,
            }
        }));
        cases
    }

    /// Theorem 12's quantifiers: the order $\alpha\in\[1,16\]$, the radius $r>0$, $T\ge1$ steps
    /// and $k\ge1$ fine steps per step, the step $\eta$, the potential (log-cosh, $L=2$, or the
    /// quadratic $\frac h2\Vert x\Vert^2$, $L=h$), the dimension $d$, the start $x_0\mathbf 1$ and both
    /// stop rules. The statement has no further hypothesis; $d\le10$, $T\le50$, $k\le20$ cap a
    /// candidate at $10^4$ sub-steps a path.
    fn space(&self) -> Option<dpclaims_core::space::Space> {
        use dpclaims_core::space::{Axis, Space};
        let base = params! {
            "potential" => "logcosh", "h" => 1.0, "d" => 2, "x0" => 1.0, "eta" => 0.05, "T" => 20,
            "k" => 10, "stop" => "prev", "r" => 0.25, "alpha" => 2.0, "trials" => 20_000,
        };
        Some(
            Space::new(base, 2000)
                .axis(Axis::choice("potential", &["quadratic", "logcosh"]))
                .axis(Axis::choice("stop", &["prev", "printed"]))
                .axis(Axis::log("alpha", 1.0, 16.0))
                .axis(Axis::log("r", 0.01, 10.0))
                .axis(Axis::log("eta", 1e-3, 0.5))
                .axis(Axis::int("T", 1, 50))
                .axis(Axis::int("k", 1, 20))
                .axis(Axis::int("d", 1, 10))
                .axis(Axis::real("x0", -3.0, 3.0))
                .axis(Axis::log("h", 0.1, 10.0)),
        )
    }

    fn measure(&self, case: &Params, run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError> {
        let mut c = Case::parse(case)?;
        let r = match c.stop {
            StopRule::Printed(r) | StopRule::Previous(r) => r,
            StopRule::Never => {
                return Err(ParamError::new(
                    "stop",
                    "never",
                    "printed or prev (Theorem 12 is about stopped processes)",
                ));
            }
        };
        if run.mutant == Some(NO_STOP.name) {
            c.stop = StopRule::Never;
        }
        // The perturbation: the simulated stopping radius times 1 + kappa (the bound keeps r).
        let grown = r * (1.0 + run.perturbation);
        c.stop = match c.stop {
            StopRule::Printed(_) => StopRule::Printed(grown),
            StopRule::Previous(_) => StopRule::Previous(grown),
            StopRule::Never => StopRule::Never,
        };
        let alphas = case.f64_list("alpha")?;
        if let Some(a) = alphas.iter().find(|a| !(**a >= 1.0 && **a <= 64.0)) {
            return Err(ParamError::new("alpha", a, "orders in [1, 64]"));
        }
        let accs = c.simulate(self.info().id, case, run, &alphas, 1.0);
        alphas
            .iter()
            .zip(accs)
            .map(|(&alpha, blocks)| {
                let bound = bounds::theorem12_bound(alpha, c.smoothness, r, c.steps, c.eta)?;
                let mut params = case.clone();
                params.set("alpha", alpha.into());
                Ok(Measurement {
                    params,
                    bound,
                    relation: Relation::AtMost,
                    statistic: statistic(alpha, blocks),
                })
            })
            .collect()
    }
}

/// THEOREMS.md `kl_path`'s closed form for the case's quadratic $H=hI$: per block with anchor
/// law $\mathcal N(m_a,S_a)$ (ULA),
/// $\sum_{i<k}\frac\eta{4k}\big[(\frac{i\eta}k)^2\mathbb E\Vert H^2(x_a-x^\ast)\Vert^2+\frac{2i\eta}k\mathrm{tr}H^2\big]$.
fn closed_form_path_kl(c: &Case, h: f64) -> f64 {
    // sum_i eta/(4k) [ (i eta/k)^2 E||H^2 (x_a - x*)||^2 + (2 i eta/k) tr H^2 ].
    let d = c.x0.len() as f64;
    let (kf, eta) = (c.k as f64, c.eta);
    let mut mean2: f64 = c.x0.iter().map(|x| x * x).sum();
    let mut var = 0.0; // per coordinate (isotropic start at a point)
    let mut kl = 0.0;
    for _ in 0..c.steps {
        let e_h2 = h.powi(4) * (mean2 + d * var);
        kl += (0..c.k)
            .map(|i| {
                let s = i as f64 * eta / kf;
                eta / (4.0 * kf) * (s * s * e_h2 + 2.0 * s * d * h * h)
            })
            .sum::<f64>();
        let a = 1.0 - eta * h;
        mean2 *= a * a;
        var = a * a * var + 2.0 * eta;
    }
    kl
}

static PATH_KL_INFO: ClaimInfo = ClaimInfo {
    id: "renyi_discretization.kl_path",
    paper: PAPER,
    result: "path KL without stopping, quadratic f [derived, THEOREMS.md kl_path]",
    statement: "the path likelihood-ratio estimator reproduces the closed-form path KL (self-test of the Theorem 12 estimator)",
    mutants: &[ESTIMATOR_VARIANCE, KL_PATH_THRESHOLD],
    known_false: false,
    tautologies: &[],
    perturbation: Some(
        "algorithm side: the simulated ULA step size times 1 + kappa while the closed-form path KL keeps eta",
    ),
};

impl Claim for PathKl {
    fn info(&self) -> &'static ClaimInfo {
        &PATH_KL_INFO
    }

    fn mutant_trials(&self, mutant: &str) -> Option<u64> {
        (mutant == KL_PATH_THRESHOLD.name).then_some(dpclaims_core::claim::DEFAULT_SIZE)
    }

    fn cases(&self) -> Vec<Params> {
        vec![params! {
            "potential" => "quadratic", "h" => 2.0, "x0" => [2.0, -1.0], "eta" => 0.05, "T" => 20, "k" => 10,
            "stop" => "never", "trials" => 600_000, "tolerance" => 0.05,
        }]
    }

    /// `kl_path`'s parameters: the quadratic's curvature $h$ ($H=hI$), the dimension
    /// `dim` $\le4$ and the start $x_0=$ `x0_each` $\cdot\mathbf 1$, the step $\eta$, $T\le30$
    /// steps and $k\le10$ fine steps (the caps keep a candidate at 1200 sub-steps a path and
    /// the confirmation's $6\cdot10^5$ paths in seconds). The closed form has no hypothesis; the
    /// self-test is decisive only where the estimator resolves its 5 % tolerance, so the space
    /// keeps the instances with a path KL of at least 0.05 (the estimate's relative standard
    /// error is about $\sqrt{2/(\mathrm{KL}\thinspace M)}$: 3 % at the search's $5\cdot10^4$ paths, under
    /// 1 % at the confirmation's; at $\mathrm{KL}=10^{-5}$ the search's best was noise).
    fn space(&self) -> Option<dpclaims_core::space::Space> {
        use dpclaims_core::space::{Axis, Space};
        Some(
            Space::new(self.cases()[0].clone(), 50_000)
                .axis(Axis::log("h", 0.1, 10.0))
                .axis(Axis::log("eta", 1e-3, 0.5))
                .axis(Axis::int("T", 1, 30))
                .axis(Axis::int("k", 1, 10))
                .axis(Axis::int("dim", 1, 4))
                .axis(Axis::real("x0_each", -3.0, 3.0))
                .derived(|p| {
                    if let (Ok(d), Ok(x)) = (p.u64("dim"), p.f64("x0_each")) {
                        p.set("x0", serde_json::json!(vec![x; d as usize]));
                    }
                })
                .constraint("path KL >= 0.05 (resolvable at the 5 % tolerance)", |p| {
                    Ok(closed_form_path_kl(&Case::parse(p)?, p.f64("h")?) >= 0.05)
                }),
        )
    }

    fn measure(&self, case: &Params, run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError> {
        let mut c = Case::parse(case)?;
        if c.stop != StopRule::Never {
            return Err(ParamError::new(
                "stop",
                "a stop rule",
                "never (the closed form is for unstopped paths)",
            ));
        }
        let tolerance = error::open_interval("tolerance", case.f64("tolerance")?, 0.0, 1.0)?;
        let scale = if run.mutant == Some(ESTIMATOR_VARIANCE.name) {
            0.5
        } else {
            1.0
        };
        let kl = closed_form_path_kl(&c, case.f64("h")?);
        // The perturbation: the simulated step size times 1 + kappa (the closed form keeps eta).
        c.eta *= 1.0 + run.kappa(&KL_PATH_THRESHOLD, 0.07);
        let accs = c.simulate(self.info().id, case, run, &[1.0], scale);
        let blocks = accs.into_iter().next().expect("one order");
        Ok(vec![Measurement {
            params: case.clone(),
            bound: kl,
            relation: Relation::Reproduces { tolerance },
            statistic: Statistic::Mean { blocks },
        }])
    }
}

/// The claims of this family, in registry order.
pub fn claims() -> Vec<&'static dyn Claim> {
    vec![&Theorem12, &PathKl, &Lemma13]
}

const RADIUS_WITHOUT_BROWNIAN_WIDTH: Mutant = Mutant {
    name: "radius-without-2sqrt-d",
    description: "bound side: the radius without the Brownian term 2 sqrt(d) (only the union-bound term)",
};

/// The claim `renyi_discretization.lemma13` (its statement and source are in its [`ClaimInfo`]).
pub struct Lemma13;

static LEMMA13_INFO: ClaimInfo = ClaimInfo {
    id: "renyi_discretization.lemma13",
    paper: PAPER,
    result: "Lemma 13, derived form [derived, THEOREMS.md lemma13.derived]",
    statement: "P[max_k sup_s ||x_{k eta+s} - x_{k eta}|| > eta G + sqrt(2 eta)(2 sqrt d + sqrt(2 ln(2T/delta)))] <= delta/2, G the path's max gradient norm [weak check, detection threshold of the bound 1.0 (no exceedance observed: the lower limit is 0), of the algorithm above 0.99 (the diffusion run with twice its time step is still not seen to exceed the radius more often than delta/2); docs/detection.json]",
    mutants: &[RADIUS_WITHOUT_BROWNIAN_WIDTH],
    known_false: false,
    tautologies: &[],
    perturbation: Some(
        "algorithm side: the simulated diffusion's time step eta times 1 + kappa (each step's movement grows as sqrt(eta)) while the radius keeps eta",
    ),
};

impl Claim for Lemma13 {
    fn info(&self) -> &'static ClaimInfo {
        &LEMMA13_INFO
    }

    fn cases(&self) -> Vec<Params> {
        vec![
            params! {
                "potential" => "logcosh", "x0" => [2.0, -1.0], "eta" => 0.05, "T" => 20, "k" => 50,
                "stop" => "never", "delta" => 0.01, "trials" => 200_000,
            },
            params! {
                "potential" => "quadratic", "h" => 1.0, "d" => 200, "x0" => 0.0, "eta" => 0.01, "T" => 10, "k" => 50,
                "stop" => "never", "delta" => 0.01, "trials" => 4000,
            },
        ]
    }

    /// Lemma 13 (derived form) for every smooth potential, step and horizon: the potential
    /// (log-cosh or the quadratic $\frac h2\Vert x\Vert^2$), the dimension $d\le10$, the start
    /// $x_0\mathbf 1$, $\eta$, $T\le20$ and the failure level $\delta\in(0,1)$; the sup over
    /// $s$ is taken on $k\in\[50,100\]$ sub-grid points (fewer would understate it).
    fn space(&self) -> Option<dpclaims_core::space::Space> {
        use dpclaims_core::space::{Axis, Space};
        let base = params! {
            "potential" => "logcosh", "h" => 1.0, "d" => 2, "x0" => 1.0, "eta" => 0.05, "T" => 20, "k" => 50,
            "stop" => "never", "delta" => 0.01, "trials" => 20_000,
        };
        Some(
            Space::new(base, 2000)
                .axis(Axis::choice("potential", &["quadratic", "logcosh"]))
                .axis(Axis::log("delta", 1e-3, 0.99))
                .axis(Axis::log("eta", 1e-3, 1.0))
                .axis(Axis::int("T", 1, 20))
                .axis(Axis::int("k", 50, 100))
                .axis(Axis::int("d", 1, 10))
                .axis(Axis::real("x0", -3.0, 3.0))
                .axis(Axis::log("h", 0.1, 10.0)),
        )
    }

    fn measure(&self, case: &Params, run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError> {
        let mut c = Case::parse(case)?;
        let delta = error::open_interval("delta", case.f64("delta")?, 0.0, 1.0)?;
        // The perturbation: the simulated step size times 1 + kappa (the radius keeps eta).
        let eta = c.eta;
        c.eta *= 1.0 + run.perturbation;
        let d = c.x0.len() as u64;
        let brownian = if run.mutant == Some(RADIUS_WITHOUT_BROWNIAN_WIDTH.name) {
            0.0
        } else {
            1.0
        };
        // Validate once with G = 0 (the per-path radius adds eta * G).
        bounds::lemma13_radius(c.eta, 0.0, d, c.steps, delta)?;
        let key = StreamKey::new(
            run.seed,
            // delta is the bound's level only.
            &[
                self.info().id,
                &dpclaims_core::claim::stream_label(case, &["delta"]),
            ],
        );
        let blocks = run_blocks(
            trial_range(c.trials, run.shard),
            || {
                (
                    [
                        vec![0.0; d as usize],
                        vec![0.0; d as usize],
                        vec![0.0; d as usize],
                        vec![0.0; d as usize],
                    ],
                    dpclaims_empirical::stats::CountAcc::default(),
                )
            },
            |ws, acc, i| {
                let (moved, g) = c.potential.movement(&c, &mut key.trial(i), ws);
                let r = eta * g
                    + (2.0 * eta).sqrt()
                        * (brownian * 2.0 * (d as f64).sqrt()
                            + (2.0 * (2.0 * c.steps as f64 / delta).ln()).sqrt());
                acc.push(moved > r);
            },
        );
        Ok(vec![Measurement {
            params: case.clone(),
            bound: delta / 2.0,
            relation: Relation::AtMost,
            statistic: Statistic::Proportion { blocks },
        }])
    }
}
