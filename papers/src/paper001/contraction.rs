//! Claims `contraction.*`: the privacy loss of projected DP-SGD converges (seed 001,
//! THEOREMS.md §4), checked against the exact law of the algorithm on worst-case neighbours.
//!
//! The exact route propagates both neighbouring laws on a 1-D grid (atoms at the ends of
//! $\mathcal W=\[0,D\]$, $N$ cells) and reports $\max$ of both orders of $\mathsf E_\varepsilon$ at
//! $N$ cells, with $|E_N-E_{N/2}|$ as its numerical error. Worst-case neighbours: every other
//! sample has a zero clipped gradient, the differing one $+C$ under $\mathcal X$ and $-C$ under
//! $\mathcal X'$ ($\ell=xw$, $x=\pm10^3$).

use dpclaims_core::claim::{Claim, ClaimInfo, Measurement, Mutant, RunSpec, Statistic};
use dpclaims_core::params;
use dpclaims_core::params::Params;
use dpclaims_core::verdict::Relation;
use dpclaims_empirical::contraction::{
    BatchSampling, Grid, ProjectedDpSgd, WeightedMap, hockey_stick, propagate_pair,
    random_sparse_law,
};
use dpclaims_empirical::rng::StreamKey;
use dpclaims_empirical::runner::{run_blocks, trial_range};
use dpclaims_empirical::stats::MeanAcc;
use dpclaims_theorems::contraction::{self as bounds, RadiusRule, Regularised};
use dpclaims_theorems::{ParamError, error};

const PAPER: &str = "001_34c1b2bc7e1d7728.txt — Asoodeh, Diaz (2023), arXiv 2305.09903";

const DIAMETER_WITHOUT_2M: Mutant = Mutant {
    name: "diameter-without-2M",
    description: "bound side: r = dia(W)/sigma, without Lemma 1's + 2M",
};
const NOISE_HALVED: Mutant = Mutant {
    name: "noise-halved",
    description: "algorithm side: the simulated noise is sigma/2 while the bound uses sigma",
};
const CLIPPING_REMOVED: Mutant = Mutant {
    name: "clipping-removed",
    description: "algorithm side: the differing sample's gradient (+-1000) is not clipped",
};
const Q_SQUARED: Mutant = Mutant {
    name: "q-squared",
    description: "bound side: q^2 in place of q in the coupled DPI",
};

/// The gradient the worst-case differing sample contributes (before clipping): $\pm10^3$.
const RAW_GRADIENT: f64 = 1e3;

/// Binomial probabilities $\mathrm{Bin}(j;m,p)$, $j=0..m$.
fn binomial(m: u64, p: f64) -> Vec<f64> {
    let mut out = Vec::with_capacity(m as usize + 1);
    let mut log_c = 0.0_f64;
    for j in 0..=m {
        if j > 0 {
            log_c += ((m - j + 1) as f64).ln() - (j as f64).ln();
        }
        out.push((log_c + j as f64 * p.ln() + (m - j) as f64 * (-p).ln_1p()).exp());
    }
    out
}

/// A weighted pre-noise map owned by its mixture.
type BoxedMap<'a> = (f64, Box<dyn Fn(f64) -> f64 + Sync + 'a>);

/// A projected 1-D instance of THEOREMS.md's table.
struct Instance {
    diameter: f64,
    sigma: f64,
    eta: f64,
    clip: f64,
    start: f64,
    /// Sampling rate $q=b/n$ (without replacement) or $p$ (Poisson).
    q: f64,
    batching: Batching,
    loss: Loss,
}

enum Batching {
    WithoutReplacement {
        b: u64,
    },
    /// `norm-B`: the batch mean over $|B|=1+\mathrm{Bin}(n-1,p)$ when the differing sample is in.
    Poisson {
        n: u64,
    },
}

enum Loss {
    /// Worst-case neighbours: zero gradient for every other sample.
    Linear,
    /// NC: $\nabla\ell(w,x)=A\sin\omega(w-x)$, others at 0, the differing one at $x^\ast$ / $x'^\ast$.
    Cosine {
        amplitude: f64,
        omega: f64,
        x_star: f64,
        x_star_prime: f64,
    },
}

impl Instance {
    fn parse(p: &Params) -> Result<Self, ParamError> {
        let n = error::at_least("n", p.u64("n")?, 1)?;
        let (q, batching) = match p.choice("batching", &["wor", "poisson"])?.as_str() {
            "wor" => {
                let b = p.u64("b")?;
                if !(1..=n).contains(&b) {
                    return Err(ParamError::new(
                        "b",
                        b,
                        format!("a batch size in [1, n = {n}]"),
                    ));
                }
                (b as f64 / n as f64, Batching::WithoutReplacement { b })
            }
            _ => (
                error::open_interval("p", p.f64("p")?, 0.0, 1.0)?,
                Batching::Poisson { n },
            ),
        };
        let loss = match p.choice("loss", &["linear", "cosine"])?.as_str() {
            "linear" => Loss::Linear,
            _ => Loss::Cosine {
                amplitude: error::positive("A", p.f64("A")?)?,
                omega: error::positive("omega", p.f64("omega")?)?,
                x_star: p.f64("x_star")?,
                x_star_prime: p.f64("x_star_prime")?,
            },
        };
        let diameter = error::positive("D", p.f64("D")?)?;
        let start = p.f64("w0")?;
        if !(0.0..=diameter).contains(&start) {
            return Err(ParamError::new(
                "w0",
                start,
                format!("a start in [0, D = {diameter}]"),
            ));
        }
        Ok(Self {
            diameter,
            sigma: error::positive("sigma", p.f64("sigma")?)?,
            eta: error::positive("eta", p.f64("eta")?)?,
            clip: error::positive("C", p.f64("C")?)?,
            start,
            q,
            batching,
            loss,
        })
    }

    /// The batch mixture of pre-noise maps $w\mapsto\psi_B(w)$ for the dataset with the
    /// differing sample's sign `sign` (+1: $\mathcal X$, -1: $\mathcal X'$).
    fn mixture(&self, sign: f64, clip: f64) -> Vec<BoxedMap<'_>> {
        let clipped = move |g: f64| g.clamp(-clip, clip);
        let eta = self.eta;
        match (&self.batching, &self.loss) {
            (Batching::WithoutReplacement { b }, Loss::Linear) => {
                let shift = -eta * clipped(sign * RAW_GRADIENT) / *b as f64;
                vec![
                    (1.0 - self.q, Box::new(|w| w)),
                    (self.q, Box::new(move |w| w + shift)),
                ]
            }
            (
                Batching::WithoutReplacement { b },
                Loss::Cosine {
                    amplitude,
                    omega,
                    x_star,
                    x_star_prime,
                },
            ) => {
                let (a, om, b) = (*amplitude, *omega, *b as f64);
                let xs = if sign > 0.0 { *x_star } else { *x_star_prime };
                let grad = move |w: f64, x: f64| clipped(a * (om * (w - x)).sin());
                vec![
                    (1.0 - self.q, Box::new(move |w| w - eta * grad(w, 0.0))),
                    (
                        self.q,
                        Box::new(move |w| w - eta / b * ((b - 1.0) * grad(w, 0.0) + grad(w, xs))),
                    ),
                ]
            }
            (Batching::Poisson { n }, _) => {
                let g = clipped(sign * RAW_GRADIENT);
                let mut maps: Vec<BoxedMap<'_>> = vec![(1.0 - self.q, Box::new(|w| w))];
                for (j, w_j) in binomial(n - 1, self.q).into_iter().enumerate() {
                    let shift = -eta * g / (j + 1) as f64;
                    maps.push((self.q * w_j, Box::new(move |w| w + shift)));
                }
                maps
            }
        }
    }

    /// $\max$ over both orders of $\mathsf E_\varepsilon$ at the checkpoints, on `cells` cells.
    fn grid_values(
        &self,
        cells: usize,
        sigma: f64,
        clip: f64,
        steps: usize,
        epsilons: &[f64],
    ) -> Vec<Vec<f64>> {
        let grid = Grid {
            lo: 0.0,
            hi: self.diameter,
            cells,
        };
        let (m, m_prime) = (self.mixture(1.0, clip), self.mixture(-1.0, clip));
        let refs: Vec<WeightedMap<'_>> = m.iter().map(|(w, f)| (*w, f.as_ref())).collect();
        let refs_prime: Vec<WeightedMap<'_>> =
            m_prime.iter().map(|(w, f)| (*w, f.as_ref())).collect();
        propagate_pair(
            &grid,
            self.start,
            sigma,
            &refs,
            &refs_prime,
            steps,
            epsilons,
        )
    }

    /// Lemma 1's $M$: $\eta C$ for every batching here (mean of clipped gradients).
    fn max_move(&self) -> f64 {
        self.eta * self.clip
    }
}

/// Grid measurements at `cells` and at `cells / 2`, as `(fine, coarse)`.
fn refined(
    inst: &Instance,
    cells: usize,
    sigma: f64,
    clip: f64,
    steps: usize,
    epsilons: &[f64],
) -> Vec<Vec<(f64, f64)>> {
    let (fine, coarse) = rayon::join(
        || inst.grid_values(cells, sigma, clip, steps, epsilons),
        || inst.grid_values(cells / 2, sigma, clip, steps, epsilons),
    );
    fine.iter()
        .zip(&coarse)
        .map(|(f, c)| f.iter().zip(c).map(|(a, b)| (*a, *b)).collect())
        .collect()
}

/// The statistic of a grid value of $\mathsf E_\varepsilon$ after `steps` steps on `states`
/// states: the refinement estimate `fine` $\pm2|$`fine`$-$`coarse`$|$, widened to at least the
/// floating-point rounding of the computation, $\rho=2(1+e^\varepsilon)(T+1)(N+2)u$ with
/// $u=2^{-53}$ (each step's matrix-vector products err by at most $Nu$ in $\ell_1$ and the
/// Markov kernels do not expand earlier errors; the hockey-stick sum of $N+2$ terms adds
/// $(1+e^\varepsilon)(N+2)u$; a factor 2 of margin). Without it a value that is 0 up to rounding
/// (e.g. $4.4\cdot10^{-16}$ against a bound of $3\cdot10^{-32}$, found by `dpclaims search
/// contraction.thm3`) had the zero-width interval of two agreeing grids and was reported
/// violated. When the grids agree closer than $\rho/2$, `coarse` is set to `fine` $-\rho/2$ so
/// that the interval is `fine` $\pm\rho$.
fn grid_statistic(fine: f64, coarse: f64, epsilon: f64, states: usize, steps: u64) -> Statistic {
    let rounding = 2.0
        * (1.0 + epsilon.exp())
        * (steps as f64 + 1.0)
        * (states as f64 + 2.0)
        * (f64::EPSILON / 2.0);
    let coarse = if 2.0 * (fine - coarse).abs() < rounding {
        fine - rounding / 2.0
    } else {
        coarse
    };
    Statistic::Refined { fine, coarse }
}

/// The claim `contraction.main` (its statement and source are in its [`ClaimInfo`]).
pub struct Main;

/// Grid cells of `contraction.main`'s searched cases (THEOREMS.md: $N\ge800$).
const MAIN_SEARCH_CELLS: u64 = 800;

const MAIN_THRESHOLD: Mutant = Mutant {
    name: "noise-std-0.98x",
    description: "algorithm side, threshold mutant: the simulated noise std times 1 - 0.02 while delta_T keeps sigma; the algorithm detection threshold (kappa* in (0, 0.0155], grid refinement) rounded up",
};
const SDPI_THRESHOLD: Mutant = Mutant {
    name: "kernel-noise-std-0.98x",
    description: "algorithm side, threshold mutant: the kernels' noise std times 1 - 0.02 while theta keeps sigma; the algorithm detection threshold (kappa* in (0, 0.0155]) rounded up",
};
const THM3_THRESHOLD: Mutant = Mutant {
    name: "noise-std-0.37x",
    description: "algorithm side, threshold mutant: the simulated noise std times 1 - 0.63 while the bound keeps sigma; the algorithm detection threshold (kappa* in (0.603, 0.619], grid refinement) rounded up",
};

static MAIN_INFO: ClaimInfo = ClaimInfo {
    id: "contraction.main",
    paper: PAPER,
    result: "eq. (5) (without replacement) and its Poisson analogue (Sec. III) [reconstructed]",
    statement: "projected DP-SGD is (eps, delta_T)-DP with delta_T = q theta (1 - ((1-q) theta)^T)/(1 - (1-q) theta), theta = theta_eps((dia(W) + 2M)/sigma): exact E_eps of the two neighbouring laws <= delta_T",
    mutants: &[
        DIAMETER_WITHOUT_2M,
        Q_SQUARED,
        NOISE_HALVED,
        CLIPPING_REMOVED,
        MAIN_THRESHOLD,
    ],
    known_false: false,
    tautologies: &[],
    perturbation: Some(
        "algorithm side: the simulated noise std sigma times 1 - kappa while delta_T keeps sigma",
    ),
};

/// A linear worst-case instance: `[D, sigma, eta, C]`, the batching, orders and checkpoints.
fn linear(
    id: &str,
    [d, sigma, eta, c]: [f64; 4],
    batching: Params,
    eps: &[f64],
    t: &[u64],
) -> Params {
    let mut p = params! {
        "instance" => id, "D" => d, "sigma" => sigma, "eta" => eta, "C" => c, "w0" => d / 2.0,
        "loss" => "linear", "epsilon" => eps.to_vec(), "T" => t.to_vec(), "cells" => 1600,
    };
    for (k, v) in batching.0.iter() {
        p.set(k, v.clone());
    }
    p
}

impl Claim for Main {
    fn info(&self) -> &'static ClaimInfo {
        &MAIN_INFO
    }

    fn cases(&self) -> Vec<Params> {
        let wor = |b: u64, n: u64| params! { "batching" => "wor", "b" => b, "n" => n };
        let poisson = |p: f64, n: u64| params! { "batching" => "poisson", "p" => p, "n" => n };
        let mut cases = vec![
            linear(
                "A_small",
                [1.0, 0.05, 1.0, 0.5],
                wor(1, 10),
                &[0.1, 1.0, 2.0],
                &[1, 5, 20, 50],
            ),
            linear(
                "K_full",
                [1.0, 1.0, 1.0, 2.0],
                wor(1, 1),
                &[0.1, 0.5, 1.0, 2.0],
                &[1, 5, 20],
            ),
            linear(
                "B_q0.5",
                [1.0, 0.5, 0.5, 1.0],
                wor(1, 2),
                &[0.1, 1.0, 2.0],
                &[1, 5, 20],
            ),
            linear(
                "B_q0.1",
                [1.0, 0.5, 0.5, 1.0],
                wor(1, 10),
                &[0.05, 0.25, 0.5],
                &[1, 5, 20],
            ),
            linear(
                "C_large",
                [1.0, 2.0, 0.5, 1.0],
                wor(5, 50),
                &[0.05, 1.0, 2.0],
                &[50],
            ),
            linear(
                "P_B",
                [1.0, 0.5, 0.5, 1.0],
                poisson(0.1, 10),
                &[0.05, 0.25],
                &[1, 5, 20],
            ),
            linear(
                "P_A",
                [1.0, 0.05, 1.0, 0.5],
                poisson(0.1, 10),
                &[0.05, 1.0],
                &[1, 5, 20, 50],
            ),
        ];
        cases.push(params! {
            "instance" => "NC", "D" => 2.0, "sigma" => 0.6, "eta" => 0.3, "C" => 1.0, "w0" => 1.0,
            "batching" => "wor", "b" => 2, "n" => 10, "loss" => "cosine", "A" => 3.0, "omega" => 6.0,
            "x_star" => 0.3, "x_star_prime" => 1.7, "epsilon" => [0.05, 0.1], "T" => [1, 5, 20, 50],
            "cells" => 1600,
        });
        cases
    }

    /// Eq. (5)'s quantified parameters: the batching (a uniform $b$-subset of $n$, $q=b/n$, or
    /// Poisson with rate $p$ over $n$), the loss (the worst-case linear neighbours, or NC's
    /// non-convex cosine with its amplitude, frequency and the differing points), the diameter
    /// $D$, noise $\sigma$, step $\eta$, clipping norm $C$, start $w_0\in\[0,D\]$, $\varepsilon\ge0$ and
    /// $T\le200$; the statement has no hypothesis beyond $b\le n$ (a constraint). Constraints of
    /// the measurement: the grid of `cells` cells resolves the noise, $\sigma\ge20D/N$, and
    /// $\delta_T\ge10^{-12}$ (below it both sides are 0 up to rounding).
    fn space(&self) -> Option<dpclaims_core::space::Space> {
        use dpclaims_core::space::{Axis, Space};
        let mut base = self.cases()[3].clone();
        for (k, v) in [
            ("instance", serde_json::json!("search")),
            ("epsilon", 0.25.into()),
            ("T", 20.into()),
            ("cells", MAIN_SEARCH_CELLS.into()),
            ("p", 0.1.into()),
            ("w0_frac", 0.5.into()),
            ("A", 3.0.into()),
            ("omega", 6.0.into()),
            ("x_star", 0.3.into()),
            ("x_star_prime", 1.7.into()),
        ] {
            base.set(k, v);
        }
        Some(
            Space::new(base, 2)
                .axis(Axis::choice("batching", &["wor", "poisson"]))
                .axis(Axis::choice("loss", &["linear", "cosine"]))
                .axis(Axis::log("D", 0.1, 10.0))
                .axis(Axis::log("sigma", 0.01, 10.0))
                .axis(Axis::log("eta", 0.01, 10.0))
                .axis(Axis::log("C", 0.01, 10.0))
                .axis(Axis::real("w0_frac", 0.0, 1.0))
                .axis(Axis::int("b", 1, 50))
                .axis(Axis::int("n", 1, 100))
                .axis(Axis::log("p", 1e-3, 0.99))
                .axis(Axis::log("A", 0.1, 10.0))
                .axis(Axis::log("omega", 0.1, 20.0))
                .axis(Axis::real("x_star", 0.0, 10.0))
                .axis(Axis::real("x_star_prime", 0.0, 10.0))
                .axis(Axis::real("epsilon", 0.0, 5.0))
                .axis(Axis::int("T", 1, 200))
                .derived(|p| {
                    if let (Ok(d), Ok(f)) = (p.f64("D"), p.f64("w0_frac")) {
                        p.set("w0", (d * f).into());
                    }
                    p.0.remove("w0_frac");
                    // Poisson batches use the linear worst case (the mixture of `Instance`).
                    let unused: &[&str] = match p.str("batching") {
                        Ok("wor") => &["p"],
                        _ => &["b", "A", "omega", "x_star", "x_star_prime"],
                    };
                    for k in unused {
                        p.0.remove(*k);
                    }
                    if p.str("batching") != Ok("wor") {
                        p.set("loss", "linear".into());
                    }
                    if p.str("loss") == Ok("linear") {
                        for k in ["A", "omega", "x_star", "x_star_prime"] {
                            p.0.remove(k);
                        }
                    }
                })
                .constraint("b <= n", |p| {
                    Ok(p.str("batching")? != "wor" || p.u64("b")? <= p.u64("n")?)
                })
                .constraint(
                    "measurement: the grid resolves the noise, sigma >= 20 D / cells",
                    |p| Ok(p.f64("sigma")? >= 20.0 * p.f64("D")? / p.u64("cells")? as f64),
                )
                .constraint(
                    "measurement: delta_T >= 1e-12 (below, theta_eps underflows and both sides are 0 up to rounding)",
                    |p| {
                        let inst = Instance::parse(p)?;
                        let r_bar =
                            bounds::normalised_diameter(inst.diameter, inst.max_move(), inst.sigma)?;
                        let delta =
                            bounds::delta_t(p.f64("epsilon")?, Some(p.u64("T")?), inst.q, r_bar)?;
                        Ok(delta >= 1e-12)
                    },
                ),
        )
    }

    fn measure(&self, case: &Params, run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError> {
        let inst = Instance::parse(case)?;
        let epsilons = case.f64_list("epsilon")?;
        for e in &epsilons {
            error::non_negative("epsilon", *e)?;
        }
        let checkpoints = case.u64_list("T")?;
        let steps = checkpoints.iter().copied().max().unwrap_or(0);
        if !(1..=10_000).contains(&steps) || checkpoints.contains(&0) {
            return Err(ParamError::new(
                "T",
                format!("{checkpoints:?}"),
                "checkpoints in [1, 10^4]",
            ));
        }
        let cells = case.u64("cells")?;
        if !(16..=20_000).contains(&cells) {
            return Err(ParamError::new(
                "cells",
                cells,
                "a grid of 16 to 20000 cells",
            ));
        }
        // The perturbation: the simulated noise std times 1 - kappa.
        let sigma_sim = if run.mutant == Some(NOISE_HALVED.name) {
            inst.sigma / 2.0
        } else {
            inst.sigma * (1.0 - run.kappa(&MAIN_THRESHOLD, 0.02))
        };
        let clip_sim = if run.mutant == Some(CLIPPING_REMOVED.name) {
            f64::INFINITY
        } else {
            inst.clip
        };
        let values = refined(
            &inst,
            cells as usize,
            sigma_sim,
            clip_sim,
            steps as usize,
            &epsilons,
        );
        let move_term = if run.mutant == Some(DIAMETER_WITHOUT_2M.name) {
            0.0
        } else {
            inst.max_move()
        };
        let r_bar = bounds::normalised_diameter(inst.diameter, move_term, inst.sigma)?;
        let q_bound = if run.mutant == Some(Q_SQUARED.name) {
            inst.q * inst.q
        } else {
            inst.q
        };
        let mut out = Vec::new();
        for &t in &checkpoints {
            for (k, &eps) in epsilons.iter().enumerate() {
                let (fine, coarse) = values[t as usize - 1][k];
                let mut params = case.clone();
                params.set("T", t.into());
                params.set("epsilon", eps.into());
                params.set("q", inst.q.into());
                params.set("r_bar", r_bar.into());
                out.push(Measurement {
                    params,
                    bound: bounds::delta_t(eps, Some(t), q_bound, r_bar)?,
                    relation: Relation::AtMost,
                    // The grid error is estimated by refinement, not bounded (a rigorous bound
                    // on the discretisation of E_eps after T steps is not available here): the
                    // interval is fine +- 2|fine - coarse|, method `refinement-estimate`, at least
                    // the rounding error.
                    statistic: grid_statistic(fine, coarse, eps, cells as usize, t),
                });
            }
        }
        Ok(out)
    }
}

/// The claim `contraction.thm3` (its statement and source are in its [`ClaimInfo`]).
pub struct RegularisedBound;

static REGULARISED_INFO: ClaimInfo = ClaimInfo {
    id: "contraction.thm3",
    paper: PAPER,
    result: "Theorem 3, eq. (21), regularised (unprojected) DP-SGD [reconstructed], r-lin radius, kappa optimised on a grid",
    statement: "W_t = c W_{t-1} - eta Clip_C(grad) + sigma Z: exact E_eps of the neighbouring laws <= (1 + e^eps) tau_T(kappa) + sum_t q theta_eps(rho_t) prod_{s>t} (1-q) theta_eps(rho_s) [weak check, detection threshold of the bound 0.94 (a bound that much smaller is still respected), of the algorithm 0.62 (the noise std cut by 60% is still respected); docs/detection.json]",
    mutants: &[CLIPPING_REMOVED, THM3_THRESHOLD],
    known_false: false,
    tautologies: &[],
    perturbation: Some(
        "algorithm side: the simulated noise std sigma times 1 - kappa while the bound keeps sigma",
    ),
};

impl Claim for RegularisedBound {
    fn info(&self) -> &'static ClaimInfo {
        &REGULARISED_INFO
    }

    fn cases(&self) -> Vec<Params> {
        [0.5, 0.2]
            .iter()
            .map(|c| {
                params! {
                    "c" => *c, "eta" => 1.0, "C" => 1.0, "sigma" => 1.0, "q" => 0.1,
                    "epsilon" => [0.5, 1.0], "T" => [1, 5, 20, 100], "half_width" => 14.0, "cells" => 2800,
                }
            })
            .collect()
    }

    /// Theorem 3's quantified parameters: the contraction $c\in(0,1)$ (its $\lambda\in(0,1)$),
    /// step $\eta$, clipping norm $C$, noise $\sigma$, sampling rate $q\in(0,1]$, $\varepsilon\ge0$ and
    /// $T\le50$ ($\kappa$ is optimised by the bound). The grid is derived: half-width
    /// $\eta C/(1-c)+12\sigma/\sqrt{1-c^2}$ (the stationary drift plus 12 stationary standard
    /// deviations), cells of width $\sigma/20$; a constraint of the measurement caps it at
    /// 2000 cells.
    fn space(&self) -> Option<dpclaims_core::space::Space> {
        use dpclaims_core::space::{Axis, Space};
        let mut base = self.cases()[0].clone();
        base.set("epsilon", 0.5.into());
        base.set("T", 20.into());
        Some(
            Space::new(base, 2)
                .axis(Axis::real("c", 0.01, 0.99))
                .axis(Axis::log("eta", 0.01, 10.0))
                .axis(Axis::log("C", 0.01, 10.0))
                .axis(Axis::log("sigma", 0.1, 10.0))
                .axis(Axis::log("q", 1e-3, 1.0))
                .axis(Axis::real("epsilon", 0.0, 5.0))
                .axis(Axis::int("T", 1, 50))
                .derived(|p| {
                    if let (Ok(c), Ok(eta), Ok(clip), Ok(sigma)) =
                        (p.f64("c"), p.f64("eta"), p.f64("C"), p.f64("sigma"))
                    {
                        let half = eta * clip / (1.0 - c) + 12.0 * sigma / (1.0 - c * c).sqrt();
                        p.set("half_width", half.into());
                        p.set("cells", ((40.0 * half / sigma).ceil() as u64).into());
                    }
                })
                .constraint("measurement: at most 2000 grid cells", |p| {
                    Ok(p.u64("cells")? <= 2000)
                }),
        )
    }

    fn measure(&self, case: &Params, run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError> {
        let reg = Regularised {
            c: case.f64("c")?,
            eta: case.f64("eta")?,
            clip: case.f64("C")?,
            sigma: case.f64("sigma")?,
            q: case.f64("q")?,
            dim: 1,
            rule: RadiusRule::Linear,
        };
        reg.delta_at(0.0, 1, 1.0)?; // validates
        let epsilons = case.f64_list("epsilon")?;
        let checkpoints = case.u64_list("T")?;
        let steps = checkpoints.iter().copied().max().unwrap_or(0);
        if !(1..=10_000).contains(&steps) || checkpoints.contains(&0) {
            return Err(ParamError::new(
                "T",
                format!("{checkpoints:?}"),
                "checkpoints in [1, 10^4]",
            ));
        }
        let half = error::positive("half_width", case.f64("half_width")?)?;
        let cells = case.u64("cells")? as usize;
        if !(16..=10_000).contains(&cells) {
            return Err(ParamError::new(
                "cells",
                cells,
                "a grid of 16 to 10000 cells",
            ));
        }
        // (Halving the noise does not break this bound: it is loose by 16x or more.)
        // The perturbation: the simulated noise std times 1 - kappa.
        let sigma_sim = reg.sigma * (1.0 - run.kappa(&THM3_THRESHOLD, 0.63));
        let clip_sim = if run.mutant == Some(CLIPPING_REMOVED.name) {
            f64::INFINITY
        } else {
            reg.clip
        };
        let (c, shift) = (reg.c, reg.eta * RAW_GRADIENT.min(clip_sim));
        let keep = move |w: f64| c * w;
        let down = move |w: f64| c * w - shift;
        let up = move |w: f64| c * w + shift;
        let m: Vec<WeightedMap<'_>> = vec![(1.0 - reg.q, &keep), (reg.q, &down)];
        let m_prime: Vec<WeightedMap<'_>> = vec![(1.0 - reg.q, &keep), (reg.q, &up)];
        // The process is not projected: the grid's end atoms only collect tails beyond 12 sigma.
        let run_grid = |n: usize| {
            let grid = Grid {
                lo: -half,
                hi: half,
                cells: n,
            };
            propagate_pair(
                &grid,
                0.0,
                sigma_sim,
                &m,
                &m_prime,
                steps as usize,
                &epsilons,
            )
        };
        let (fine, coarse) = rayon::join(|| run_grid(cells), || run_grid(cells / 2));
        let mut out = Vec::new();
        for &t in &checkpoints {
            let bounds_t = epsilons
                .iter()
                .map(|&e| reg.delta(e, t))
                .collect::<Result<Vec<_>, _>>()?;
            for (k, &eps) in epsilons.iter().enumerate() {
                let (value, coarse) = (fine[t as usize - 1][k], coarse[t as usize - 1][k]);
                let mut params = case.clone();
                params.set("T", t.into());
                params.set("epsilon", eps.into());
                params.set("kappa", bounds_t[k].1.into());
                out.push(Measurement {
                    params,
                    bound: bounds_t[k].0,
                    relation: Relation::AtMost,
                    // Refinement estimate, not a bound (as for `contraction.main`).
                    statistic: grid_statistic(value, coarse, eps, cells, t),
                });
            }
        }
        Ok(out)
    }
}

/// The claim `contraction.sdpi` (its statement and source are in its [`ClaimInfo`]).
pub struct Sdpi;

const HALF_DIAMETER: Mutant = Mutant {
    name: "coefficient-at-half-diameter",
    description: "bound side: theta_eps(dia(W)/(2 sigma)) in place of theta_eps(dia(W)/sigma)",
};

static SDPI_INFO: ClaimInfo = ClaimInfo {
    id: "contraction.sdpi",
    paper: PAPER,
    result: "Gaussian-kernel SDPI (Sec. II proposition) and the coupled DPI (4)/(10) [reconstructed]",
    statement: "on extremal and random pairs of laws on W = [0, D]: E_eps(K mu || K nu) <= theta_eps(D/sigma) E_eps(mu || nu), and E_eps(K_t mu || K'_t nu) <= (1-q) theta E_eps(mu || nu) + q theta with theta = theta_eps((D + 2 eta C)/sigma); measured: the largest ratio of the two sides over the pairs drawn (a sampled maximum, with its numerical error; the SDPI, an equality at the extremal pairs, to relative tolerance 1e-6)",
    mutants: &[HALF_DIAMETER, Q_SQUARED, SDPI_THRESHOLD],
    known_false: false,
    tautologies: &[],
    perturbation: Some(
        "algorithm side: the kernels' noise std sigma times 1 - kappa while theta keeps sigma",
    ),
};

impl Claim for Sdpi {
    fn info(&self) -> &'static ClaimInfo {
        &SDPI_INFO
    }

    fn cases(&self) -> Vec<Params> {
        let mut cases = Vec::new();
        for (sigma, eps) in [(0.5, 0.1), (0.5, 1.0), (1.0, 0.5)] {
            cases.push(params! {
                "D" => 1.0, "sigma" => sigma, "eta" => 0.5, "C" => 1.0, "q" => 0.1, "epsilon" => eps,
                "cells" => 200, "support" => 3, "pairs" => 300, "tolerance" => 1e-6,
            });
        }
        cases
    }

    /// The two inequalities' quantified parameters: the diameter $D$, noise $\sigma$, step
    /// $\eta$, clipping norm $C$, sampling rate $q\in(0,1)$ and $\varepsilon\ge0$, and the laws
    /// (extremal pairs and random pairs of the given support size); no hypotheses.
    fn space(&self) -> Option<dpclaims_core::space::Space> {
        use dpclaims_core::space::{Axis, Space};
        Some(
            Space::new(self.cases()[0].clone(), 2)
                .axis(Axis::log("D", 0.1, 10.0))
                .axis(Axis::log("sigma", 0.01, 10.0))
                .axis(Axis::log("eta", 0.01, 10.0))
                .axis(Axis::log("C", 0.01, 10.0))
                .axis(Axis::log("q", 1e-3, 0.99))
                .axis(Axis::real("epsilon", 0.0, 5.0))
                .axis(Axis::int("support", 1, 20)),
        )
    }

    fn measure(&self, case: &Params, run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError> {
        let d = error::positive("D", case.f64("D")?)?;
        let sigma = error::positive("sigma", case.f64("sigma")?)?;
        let shift =
            error::positive("eta", case.f64("eta")?)? * error::positive("C", case.f64("C")?)?;
        let q = error::open_interval("q", case.f64("q")?, 0.0, 1.0)?;
        let eps = error::non_negative("epsilon", case.f64("epsilon")?)?;
        let cells = case.u64("cells")? as usize;
        if !(2..=5000).contains(&cells) {
            return Err(ParamError::new("cells", cells, "a grid of 2 to 5000 cells"));
        }
        let support = error::at_least("support", case.u64("support")?, 1)? as usize;
        let pairs = error::at_least("pairs", case.u64("pairs")?, 1)?;
        let grid = Grid {
            lo: 0.0,
            hi: d,
            cells,
        };
        let id = |w: f64| w;
        let down = move |w: f64| w - shift;
        let up = move |w: f64| w + shift;
        // The perturbation: the kernels' noise std times 1 - kappa (theta keeps sigma).
        let sigma_kernel = sigma * (1.0 - run.kappa(&SDPI_THRESHOLD, 0.02));
        let kernel = grid.kernel(sigma_kernel, &[(1.0, &id)]);
        let k_t = grid.kernel(sigma_kernel, &[(1.0 - q, &id), (q, &down)]);
        let k_t_prime = grid.kernel(sigma_kernel, &[(1.0 - q, &id), (q, &up)]);
        let scale = if run.mutant == Some(HALF_DIAMETER.name) {
            0.5
        } else {
            1.0
        };
        let theta_sdpi = bounds::theta(eps, scale * d / sigma)?;
        let theta_cdpi = bounds::theta(eps, bounds::normalised_diameter(d, shift, sigma)?)?;
        let q_bound = if run.mutant == Some(Q_SQUARED.name) {
            q * q
        } else {
            q
        };
        let tolerance = error::open_interval("tolerance", case.f64("tolerance")?, 0.0, 1.0)?;
        // The random laws depend only on the number of states and the support size.
        let key = StreamKey::new(
            run.seed,
            &[self.info().id, &format!("cells={cells} support={support}")],
        );
        let n_states = grid.states();
        let point = |s: usize| {
            let mut law = vec![0.0; n_states];
            law[s] = 1.0;
            law
        };
        // Instances 0..3 are the extremal pairs (point masses at the ends and a shared centre),
        // the others random sparse pairs: a sampled maximum over `pairs + 3` instances.
        let pair = |i: u64| match i {
            0 => (point(0), point(n_states - 1)),
            1 => (point(n_states - 1), point(0)),
            2 => (point(n_states / 2), point(n_states / 2)),
            _ => {
                let mut rng = key.trial(i - 3);
                let mu = random_sparse_law(n_states, support, &mut rng);
                let nu = random_sparse_law(n_states, support, &mut rng);
                (mu, nu)
            }
        };
        let g = eps.exp();
        let u = f64::EPSILON / 2.0;
        // Rounding and kernel error of one hockey-stick value on the grid (see `SDPI_ERRORS`).
        let input_error = (1.0 + g) * (2 * support + 2) as f64 * u;
        let output_error = (1.0 + g)
            * (2.0 * n_states as f64 * KERNEL_CDF_ERROR + (n_states + support + 2) as f64 * u);
        let blocks = run_blocks(
            trial_range(pairs + 3, run.shard),
            || {
                (
                    (vec![0.0; n_states], vec![0.0; n_states]),
                    vec![MeanAcc::new(); 4],
                )
            },
            |(a, b), acc, i| {
                let (mu, nu) = pair(i);
                let before = hockey_stick(&mu, &nu, eps);
                // Pairs with E_eps(mu || nu) near 0 give no usable ratio.
                if before > MIN_BEFORE {
                    kernel.apply(&mu, a);
                    kernel.apply(&nu, b);
                    let ratio = hockey_stick(a, b, eps) / before;
                    let err = (output_error + ratio * input_error) / (before - input_error);
                    acc[0].push(ratio + err);
                    acc[1].push(ratio - err);
                }
                k_t.apply(&mu, a);
                k_t_prime.apply(&nu, b);
                let lhs = hockey_stick(a, b, eps);
                match bounds::coupled_dpi(before, q_bound, theta_cdpi) {
                    Ok(rhs) => {
                        let rhs_error = (1.0 - q_bound) * theta_cdpi * input_error + 4.0 * u * rhs;
                        let ratio = lhs / rhs;
                        let err = (output_error + ratio * rhs_error) / (rhs - rhs_error);
                        acc[2].push(ratio + err);
                        acc[3].push(ratio - err);
                    }
                    Err(_) => acc[2].push(f64::NAN),
                }
            },
        );
        let column = |j: usize| -> Vec<MeanAcc> { blocks.iter().map(|b| b[j].clone()).collect() };
        let mut p1 = case.clone();
        p1.set(
            "inequality",
            "SDPI: max ratio E(K mu||K nu)/E(mu||nu)".into(),
        );
        let mut p2 = case.clone();
        p2.set("inequality", "coupled DPI: max ratio lhs/rhs".into());
        p1.set("theta", theta_sdpi.into());
        // The SDPI is attained (point masses at distance D): checked to the stated relative
        // tolerance, bound theta (1 + tolerance); the interval carries the numerical error.
        Ok(vec![
            Measurement {
                params: p1,
                bound: theta_sdpi * (1.0 + tolerance),
                relation: Relation::AtMost,
                statistic: Statistic::Maximum {
                    blocks: column(0),
                    lower: Some(column(1)),
                },
            },
            Measurement {
                params: p2,
                bound: 1.0,
                relation: Relation::AtMost,
                statistic: Statistic::Maximum {
                    blocks: column(2),
                    lower: Some(column(3)),
                },
            },
        ])
    }
}

/// Pairs with $\mathsf E_\varepsilon(\mu\Vert\nu)$ at most this are skipped by `contraction.sdpi`
/// (their ratio is numerically meaningless).
const MIN_BEFORE: f64 = 1e-6;

/// A bound on the absolute error of one normal CDF value of the grid kernel: statrs 0.19.1's
/// `erfc` carries up to about $10^{-10}$ relative error (RUST_NOTES.md), so $2\cdot10^{-10}$.
///
/// # `SDPI_ERRORS`: the numerical error of `contraction.sdpi`'s ratios
/// With $u=2^{-53}$, $g=e^\varepsilon$, $N$ states and laws of support $S$: a kernel entry is a
/// difference of two CDF values, so the entries of one row err by at most $2\kappa$ each
/// ($\kappa$ this constant); the output laws $a=K^\top\mu$ err in total by
/// $\sum_t|\hat a_t-a_t|\le2N\kappa+Su$, and the hockey-stick sum of $N$ terms adds $(N+2)u$ per
/// unit mass, so $|\hat{\mathsf E}-\mathsf E|\le(1+g)(2N\kappa+(N+S+2)u)$ after the kernel and
/// $\le(1+g)(2S+2)u$ before it (the input laws are exact up to their own rounding). The ratio
/// $r=\text{after}/\text{before}$ then errs by at most
/// $(\delta_{\text{after}}+\hat r\thinspace\delta_{\text{before}})/(\text{before}-\delta_{\text{before}})$,
/// and each instance enters the sampled maximum as $\[\hat r-e,\hat r+e\]$. At the default
/// sizes ($N=202$, $\varepsilon\le1$) $e\lesssim2.4\cdot10^{-7}$ on the extremal pairs
/// ($\text{before}=1$), while their ratio equals $\theta$ up to the grid's end atoms: the SDPI
/// is an *equality* there, so it is checked to the stated relative tolerance $10^{-6}$ (a few
/// times the error bound), bound $\theta(1+10^{-6})$.
const KERNEL_CDF_ERROR: f64 = 2e-10;

/// The claim `contraction.mc2d` (its statement and source are in its [`ClaimInfo`]).
pub struct MonteCarlo2d;

const BATCH_OF_TWO: Mutant = Mutant {
    name: "batch-of-two",
    description: "algorithm side: batches of 2 (the differing sample drawn with probability 2q) while the bound uses q = 1/n",
};

static MC2D_INFO: ClaimInfo = ClaimInfo {
    id: "contraction.mc2d",
    paper: PAPER,
    result: "eq. (5) in two dimensions [reconstructed], Monte Carlo with a DKW lower confidence bound",
    statement: "projected DP-SGD on the disk of radius 0.5 (sigma 0.05, eta 1, C 0.5, b 1, n 10, gradients +-C e1): the DKW lower confidence limit of the half-line hockey-stick functional of <W_T, e1> (<= E_eps) does not exceed delta_T (a refutation check) [weak check, detection threshold of the algorithm above 0.99: at sigma 0.05 theta_eps(r_bar = 40) is 1, so delta_T = 1 - (1 - q)^T is the noiseless value and no noise cut can exceed it (the bound's is 0.042); docs/detection.json]",
    mutants: &[BATCH_OF_TWO],
    known_false: false,
    tautologies: &[],
    perturbation: Some(
        "algorithm side: the simulated noise std sigma times 1 - kappa while delta_T keeps sigma",
    ),
};

impl Claim for MonteCarlo2d {
    fn info(&self) -> &'static ClaimInfo {
        &MC2D_INFO
    }

    fn cases(&self) -> Vec<Params> {
        vec![params! {
            "radius" => 0.5, "sigma" => 0.05, "eta" => 1.0, "C" => 0.5, "b" => 1, "n" => 10,
            "T" => [1, 5, 10], "epsilon" => [0.5, 1.0], "bins" => 2000, "trials" => 400_000,
        }]
    }

    /// Eq. (5) in two dimensions: the disk's radius, noise $\sigma$, step $\eta$, clipping norm
    /// $C$, dataset size $n$ (one sample per step, $q=1/n$), $\varepsilon\ge0$ and $T\le100$; no
    /// hypotheses.
    fn space(&self) -> Option<dpclaims_core::space::Space> {
        use dpclaims_core::space::{Axis, Space};
        let mut base = self.cases()[0].clone();
        base.set("T", 5.into());
        base.set("epsilon", 0.5.into());
        Some(
            Space::new(base, 20_000)
                .axis(Axis::log("radius", 0.1, 10.0))
                .axis(Axis::log("sigma", 0.01, 10.0))
                .axis(Axis::log("eta", 0.01, 10.0))
                .axis(Axis::log("C", 0.01, 10.0))
                .axis(Axis::int("n", 1, 100))
                .axis(Axis::real("epsilon", 0.0, 5.0))
                .axis(Axis::int("T", 1, 100)),
        )
    }

    fn measure(&self, case: &Params, run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError> {
        let radius = error::positive("radius", case.f64("radius")?)?;
        let sigma = error::positive("sigma", case.f64("sigma")?)?;
        let shift =
            error::positive("eta", case.f64("eta")?)? * error::positive("C", case.f64("C")?)?;
        let n = error::at_least("n", case.u64("n")?, 1)?;
        let b = case.u64("b")?;
        if b != 1 {
            return Err(ParamError::new("b", b, "1 (one sample per step)"));
        }
        let checkpoints = case.u64_list("T")?;
        let steps = checkpoints.iter().copied().max().unwrap_or(0);
        if !(1..=1000).contains(&steps) || checkpoints.contains(&0) {
            return Err(ParamError::new(
                "T",
                format!("{checkpoints:?}"),
                "checkpoints in [1, 1000]",
            ));
        }
        let epsilons = case.f64_list("epsilon")?;
        let bins = case.u64("bins")? as usize;
        if !(2..=100_000).contains(&bins) {
            return Err(ParamError::new("bins", bins, "2 to 10^5 bins"));
        }
        let trials = error::at_least("trials", case.u64("trials")?, 2)?;
        let q = 1.0 / n as f64;
        let clip = error::positive("C", case.f64("C")?)?;
        let b_sim = if run.mutant == Some(BATCH_OF_TWO.name) {
            2
        } else {
            1
        };
        let key = StreamKey::new(
            run.seed,
            // The orders epsilon and the histogram's bins only read the draws.
            &[
                self.info().id,
                &dpclaims_core::claim::stream_label(case, &["epsilon", "bins"]),
            ],
        );
        // Sample 0 differs: raw gradient +1000 e1 under X, -1000 e1 under X' (clipped to C);
        // every other sample has gradient 0.
        let alg = ProjectedDpSgd {
            dim: 2,
            n: n as usize,
            eta: shift / clip,
            clip,
            // The perturbation: the simulated noise std times 1 - kappa.
            sigma: sigma * (1.0 - run.perturbation),
            radius,
            contraction: 1.0,
            sampling: BatchSampling::WithoutReplacement { b: b_sim },
        };
        let gradient = |sign: f64| {
            move |i: usize, _: &[f64], out: &mut [f64]| {
                out[0] = if i == 0 { sign * RAW_GRADIENT } else { 0.0 };
                out[1] = 0.0;
            }
        };
        let (g_plus, g_minus) = (gradient(1.0), gradient(-1.0));
        let blocks = dpclaims_empirical::runner::run_blocks(
            dpclaims_empirical::runner::trial_range(trials, run.shard),
            || {
                (
                    vec![0.0; 4],
                    vec![
                        dpclaims_empirical::stats::TwoSampleHistogram::new(-radius, radius, bins);
                        checkpoints.len()
                    ],
                )
            },
            |scratch, hists, i| {
                let mut rng = key.trial(i);
                let (mut w, mut w_prime) = ([0.0; 2], [0.0; 2]);
                for t in 1..=steps {
                    alg.step(&mut w, &g_plus, &mut rng, scratch);
                    alg.step(&mut w_prime, &g_minus, &mut rng, scratch);
                    if let Some(k) = checkpoints.iter().position(|c| *c == t) {
                        hists[k].push(w[0], w_prime[0]);
                    }
                }
            },
        );
        let merged = dpclaims_empirical::runner::fold(blocks).unwrap_or_default();
        let r_bar = bounds::normalised_diameter(2.0 * radius, shift, sigma)?;
        let mut out = Vec::new();
        for (k, &t) in checkpoints.iter().enumerate() {
            for &eps in &epsilons {
                let mut params = case.clone();
                params.set("T", t.into());
                params.set("epsilon", eps.into());
                out.push(Measurement {
                    params,
                    bound: bounds::delta_t(eps, Some(t), q, r_bar)?,
                    relation: Relation::LowerLimitAtMost,
                    statistic: Statistic::HalfLineHockeyStick {
                        histogram: merged[k].clone(),
                        epsilon: eps,
                    },
                });
            }
        }
        Ok(out)
    }
}

/// One point of the convergence series (`dpclaims contraction-series`).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct SeriesPoint {
    /// The number of steps $T$.
    #[serde(rename = "T")]
    pub steps: u64,
    /// Eq. (5)'s $\delta_T(\varepsilon)$ (hidden state, converges).
    pub contraction_bound: f64,
    /// The exact $\mathsf E_\varepsilon$ of the two laws (grid) and its refinement error.
    pub exact: f64,
    /// The grid refinement error of `exact`.
    pub exact_error: f64,
    /// The PLD accountant's pessimistic $\delta(\varepsilon)$ of the $T$-fold composition of the
    /// per-step subsampled Gaussian (releases every iterate; grows with $T$).
    pub composition_bound: f64,
}

/// The series $T=1..$`steps` for one of `contraction.main`'s linear instances: the bound,
/// the exact value and the composition bound (which ignores the hidden state).
pub fn series(
    instance: &str,
    epsilon: f64,
    steps: u64,
    pld_interval: f64,
) -> Result<Vec<SeriesPoint>, ParamError> {
    use dpclaims_theorems::privacy::pld::{self, PldOptions};
    use dpclaims_theorems::privacy::{DpSgd, Neighbouring, Sampling};
    let case = Main
        .cases()
        .into_iter()
        .find(|c| c.str("instance").ok() == Some(instance) && c.str("loss").ok() == Some("linear"))
        .ok_or_else(|| {
            ParamError::new(
                "instance",
                instance,
                "a linear instance of contraction.main (A_small, K_full, B_q0.5, B_q0.1, C_large, P_B, P_A)",
            )
        })?;
    error::non_negative("epsilon", epsilon)?;
    if !(1..=2000).contains(&steps) {
        return Err(ParamError::new("steps", steps, "1 to 2000 steps"));
    }
    let inst = Instance::parse(&case)?;
    let cells = case.u64("cells")? as usize;
    let values = refined(
        &inst,
        cells,
        inst.sigma,
        inst.clip,
        steps as usize,
        &[epsilon],
    );
    let r_bar = bounds::normalised_diameter(inst.diameter, inst.max_move(), inst.sigma)?;
    // The per-step mechanism: a shift of +-eta C / b (sensitivity 2 eta C / b between the
    // neighbours) under noise sigma, i.e. noise multiplier sigma b / (eta C) relative to the
    // replace-one pair.
    let (sampling, per_step_shift) = match inst.batching {
        Batching::WithoutReplacement { b } => {
            (Sampling::WithoutReplacement, inst.max_move() / b as f64)
        }
        Batching::Poisson { .. } => (Sampling::Poisson, inst.max_move()),
    };
    let (sampling, q) = if inst.q >= 1.0 {
        (Sampling::None, 1.0)
    } else {
        (sampling, inst.q)
    };
    let opts = PldOptions {
        interval: pld_interval,
        ..PldOptions::default()
    };
    (1..=steps)
        .map(|t| {
            let mech = DpSgd::new(
                q,
                inst.sigma / per_step_shift,
                t,
                sampling,
                Neighbouring::ReplaceOne,
            )?;
            let (exact, coarse) = values[t as usize - 1][0];
            let exact_error = (exact - coarse).abs();
            Ok(SeriesPoint {
                steps: t,
                contraction_bound: bounds::delta_t(epsilon, Some(t), inst.q, r_bar)?,
                exact,
                exact_error,
                composition_bound: pld::dp_sgd_delta(&mech, epsilon, &opts)?.pessimistic,
            })
        })
        .collect()
}

/// The claims of this family, in registry order.
pub fn claims() -> Vec<&'static dyn Claim> {
    vec![&Main, &RegularisedBound, &Sdpi, &MonteCarlo2d]
}
