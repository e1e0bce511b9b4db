//! Claims `subspace.*`: PDP-SGD, gradient subspace identification from public data (seed 003,
//! Zhou, Wu, Banerjee 2021; THEOREMS.md §6). So far: the Davis–Kahan step (`thm2.dk`) on
//! random instances and the noise calibration of the privacy statement.

use super::{Claim, ClaimInfo, Measurement, Mutant, RunSpec, Statistic};
use crate::params;
use crate::params::Params;
use crate::verdict::Relation;
use dpclaims_empirical::rng::StreamKey;
use dpclaims_empirical::subspace::davis_kahan_instance;
use dpclaims_theorems::privacy::pld::{self, PldOptions};
use dpclaims_theorems::privacy::{DpSgd, Neighbouring, Sampling};
use dpclaims_theorems::{ParamError, error, subspace as bounds};

const PAPER: &str = "003_533141984a6e2a14.txt — Zhou, Wu, Banerjee (2021), arXiv 2007.03813";

const DK_WITHOUT_2: Mutant = Mutant {
    name: "davis-kahan-without-2",
    description: "bound side: ||P^ - P|| <= ||M - Sigma|| / alpha (the factor 2 dropped)",
};
const MULTIPLIER_AS_STD: Mutant = Mutant {
    name: "multiplier-as-std",
    description: "accounting side: the noise std of the mean gradient sigma used as the noise multiplier (z = sigma/G instead of sigma B/G)",
};

pub struct DavisKahan;

static DK_INFO: ClaimInfo = ClaimInfo {
    id: "subspace.thm2.dk",
    paper: PAPER,
    result: "Theorem 2's deterministic step [derived thm2.dk, Davis-Kahan]",
    statement: "||P^ - P||_2 <= 2 ||M - Sigma||_2 / alpha on random PSD Sigma (p in [3, 12), k in [1, p)) and symmetric perturbations of log-uniform scale: the largest ratio of the two sides <= 1",
    mutants: &[DK_WITHOUT_2],
    known_false: false,
};

impl Claim for DavisKahan {
    fn info(&self) -> &'static ClaimInfo {
        &DK_INFO
    }

    fn cases(&self) -> Vec<Params> {
        vec![params! { "instances" => 20_000 }]
    }

    fn measure(&self, case: &Params, run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError> {
        let instances = error::at_least("instances", case.u64("instances")?, 1)?;
        let key = StreamKey::new(run.seed, &[self.info().id, &case.label_without(&[])]);
        let factor = if run.mutant == Some(DK_WITHOUT_2.name) {
            1.0
        } else {
            2.0
        };
        let mut worst: f64 = 0.0;
        for i in 0..instances {
            let (distance, perturbation, gap) = davis_kahan_instance(&mut key.trial(i));
            if gap > 0.0 {
                worst = worst.max(distance / (factor * perturbation / gap));
            }
        }
        Ok(vec![Measurement {
            params: case.clone(),
            bound: 1.0,
            relation: Relation::AtMost,
            statistic: Statistic::Exact { value: worst },
        }])
    }
}

pub struct PrivacyCalibration;

static PRIVACY_INFO: ClaimInfo = ClaimInfo {
    id: "subspace.privacy.calib",
    paper: PAPER,
    result: "PDP-SGD privacy [recalled] with the noise of E3-3 (c2 = 2.157) and a larger run [derived privacy.calib]",
    statement: "sigma^2 = c2 G^2 T ln(1/delta)/(n^2 eps^2) makes PDP-SGD (eps, delta)-DP (the projection is post-processing): RDP (integer orders) and PLD upper bounds on eps (Poisson, add/remove) <= eps",
    mutants: &[MULTIPLIER_AS_STD],
    known_false: false,
};

impl Claim for PrivacyCalibration {
    fn info(&self) -> &'static ClaimInfo {
        &PRIVACY_INFO
    }

    fn cases(&self) -> Vec<Params> {
        vec![
            params! { "n" => 30, "B" => 5, "T" => 900, "epsilon" => 1.0, "delta" => 1e-3, "c2" => 2.157 },
            params! { "n" => 1000, "B" => 10, "T" => 10_000, "epsilon" => 1.0, "delta" => 1e-5, "c2" => 2.2 },
        ]
    }

    fn measure(&self, case: &Params, run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError> {
        let (n, b, t) = (case.u64("n")?, case.u64("B")?, case.u64("T")?);
        let (eps, delta, c2) = (case.f64("epsilon")?, case.f64("delta")?, case.f64("c2")?);
        let mut z = bounds::noise_multiplier(c2, n, b, t, eps, delta)?;
        if run.mutant == Some(MULTIPLIER_AS_STD.name) {
            z /= b as f64;
        }
        let q = b as f64 / n as f64;
        let rdp_eps = bounds::poisson_epsilon_integer_orders(q, z, t, delta)?;
        let mech = DpSgd::new(q, z, t, Sampling::Poisson, Neighbouring::AddRemove)?;
        let pld_eps = pld::dp_sgd_epsilon(&mech, delta, &PldOptions::default())?.pessimistic;
        let c2_min = bounds::c2_min(n, b, t, eps, delta)?;
        let with = |name: &str, value: f64| {
            let mut params = case.clone();
            params.set("accountant", name.into());
            params.set("z", z.into());
            params.set("c2_min", c2_min.into());
            Measurement {
                params,
                bound: eps,
                relation: Relation::AtMost,
                statistic: Statistic::Exact { value },
            }
        };
        Ok(vec![
            with("RDP, integer orders 2..511", rdp_eps),
            with("PLD, pessimistic", pld_eps),
        ])
    }
}

const SUM_LOSS: Mutant = Mutant {
    name: "sum-loss",
    description: "algorithm side: PDP-SGD run and measured on the sum loss n L_n while the bound uses the mean loss's constants",
};

pub struct Theorem3Derived;

static THM3_INFO: ClaimInfo = ClaimInfo {
    id: "subspace.thm3.derived",
    paper: PAPER,
    result: "Theorem 3, explicit surrogate S3 [derived thm3.derived], E3-3 on P-lowrank",
    statement: "(1/T) sum_t E||P^_t grad L_n(w_t)||^2 <= (L_n(w_0) - L_n*)/(eta T) + (rho eta/2)(G^2 + k sigma^2), public eigenspace refreshed every 10 steps",
    mutants: &[SUM_LOSS],
    known_false: false,
};

impl Claim for Theorem3Derived {
    fn info(&self) -> &'static ClaimInfo {
        &THM3_INFO
    }

    fn cases(&self) -> Vec<Params> {
        vec![params! {
            "p" => 20, "k" => 2, "tau" => 0.15, "K" => 2048, "n" => 30, "B" => 5, "m" => 10, "epsilon" => 1.0,
            "delta" => 1e-3, "T" => 900, "c2" => 2.157, "refresh" => 10, "trials" => 1000,
        }]
    }

    fn measure(&self, case: &Params, run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError> {
        use dpclaims_empirical::runner::{run_blocks, trial_range};
        use dpclaims_empirical::stats::MeanAcc;
        use dpclaims_empirical::subspace::{LowRankPool, PdpSgd, Projection};
        let (p, k) = (case.u64("p")? as usize, case.u64("k")? as usize);
        if !(2..=2000).contains(&p) || !(1..p).contains(&k) {
            return Err(ParamError::new("k", k, "1 <= k < p <= 2000"));
        }
        let (kk, n, b, m) = (
            case.u64("K")?,
            case.u64("n")?,
            case.u64("B")?,
            case.u64("m")?,
        );
        if !(1..=n).contains(&b) || n > kk || m > kk {
            return Err(ParamError::new("B", b, "1 <= B <= n <= K and m <= K"));
        }
        let t = error::at_least("T", case.u64("T")?, 1)?;
        let trials = error::at_least("trials", case.u64("trials")?, 2)?;
        let refresh = error::at_least("refresh", case.u64("refresh")?, 1)? as usize;
        let (g, rho) = (0.9, 0.2025);
        let (eps, delta) = (case.f64("epsilon")?, case.f64("delta")?);
        let sigma =
            (case.f64("c2")? * g * g * t as f64 * (1.0 / delta).ln()).sqrt() / (n as f64 * eps);
        let eta = 1.0 / (t as f64).sqrt();
        let pool_key = StreamKey::new(
            run.seed,
            &[self.info().id, "pool", &case.label_without(&["trials"])],
        );
        let pool = LowRankPool::generate(kk as usize, p, case.f64("tau")?, &mut pool_key.trial(0));
        let private: Vec<usize> = (0..n as usize).collect();
        let public: Vec<usize> = (n as usize..(n + m) as usize).collect();
        let delta_l = pool.loss(&vec![0.0; p], &private); // L_n(w_0) - L_n* <= L_n(0) (loss >= 0)
        let bound = bounds::theorem3_bound(delta_l, eta, t, rho, g, k as u64, sigma)?;
        let scale = if run.mutant == Some(SUM_LOSS.name) {
            n as f64
        } else {
            1.0
        };
        let key = StreamKey::new(
            run.seed,
            &[self.info().id, &case.label_without(&["trials"])],
        );
        let config = PdpSgd {
            k,
            steps: t as usize,
            batch: b as usize,
            eta,
            sigma,
            refresh,
            projection: Projection::Public,
            gradient_scale: scale,
        };
        let blocks = run_blocks(
            trial_range(trials, run.shard),
            || ((), MeanAcc::new()),
            |_, acc, i| {
                acc.push(config.projected_gradient(&pool, &private, &public, &mut key.trial(i)))
            },
        );
        let mut params = case.clone();
        params.set("sigma", sigma.into());
        Ok(vec![Measurement {
            params,
            bound,
            relation: Relation::AtMost,
            statistic: Statistic::Mean { blocks },
        }])
    }
}

pub fn claims() -> Vec<&'static dyn Claim> {
    vec![&DavisKahan, &PrivacyCalibration, &Theorem3Derived]
}
