//! `sgld_passes`: Algorithm 1 of seed 000 on P-pool (K = 1024, d = 10): one single-pass run
//! (T = 1000, fixed eta = 0.01, c_t = (t-1)/t, fresh samples) and one multi-pass run with
//! Theorem 2's schedule (n = 200, T = 2828), each ending with the exact population loss.

use criterion::{Criterion, criterion_group, criterion_main};
use dpclaims_empirical::algorithms::{Sgld, Step, Workspace};
use dpclaims_empirical::problems::{FinitePopulation, LogisticPool};
use dpclaims_empirical::rng::StreamKey;
use dpclaims_theorems::multipass::{HorizonRounding, Theorem2Schedule};
use std::hint::black_box;

fn passes(c: &mut Criterion) {
    let key = StreamKey::new(1, &["bench", "sgld_passes"]);
    let pool = LogisticPool::generate(1024, 10, &mut key.trial(0));
    let all: Vec<usize> = (0..1024).collect();
    let single: Vec<Step> = (2..=1000)
        .map(|t| Step::langevin(0.01, (t - 1) as f64 / t as f64, 0.005))
        .collect();
    let mut ws = Workspace::new(10);
    let mut i = 0u64;
    let run_single = Sgld {
        population: &pool,
        steps: &single,
        beta0: 0.005,
    };
    c.bench_function("single_pass_T1000", |b| {
        b.iter(|| {
            i += 1;
            let mut last = 0.0;
            run_single.run(&all, &mut key.trial(i), &mut ws, |t, w| {
                if t == 1000 {
                    last = pool.population_loss(w)
                }
            });
            black_box(last)
        })
    });
    let s = Theorem2Schedule::from_privacy(
        200,
        1e-3,
        200f64.powf(-0.25),
        2.0,
        1.0,
        1.0,
        HorizonRounding::Floor,
    )
    .expect("reference schedule");
    let eta = s.etas();
    let multi: Vec<Step> = (1..eta.len())
        .map(|t| Step::langevin(eta[t], eta[t] / eta[t - 1], s.beta0))
        .collect();
    let mut data = Vec::new();
    pool.draw_dataset(200, &mut key.trial(1), &mut data);
    let run_multi = Sgld {
        population: &pool,
        steps: &multi,
        beta0: s.beta0,
    };
    c.bench_function("multi_pass_theorem2_T2828", |b| {
        b.iter(|| {
            i += 1;
            let mut last = 0.0;
            run_multi.run(&data, &mut key.trial(i), &mut ws, |t, w| {
                if t == eta.len() {
                    last = pool.population_loss(w)
                }
            });
            black_box(last)
        })
    });
}

criterion_group!(benches, passes);
criterion_main!(benches);
