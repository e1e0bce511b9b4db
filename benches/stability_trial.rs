//! `stability_trial`: one coupled trial of the stability claims' hot loop.
//!
//! Workload (fixed, so other implementations can run the same one): P-pool logistic
//! regression (K = 1024 points, d = 10, ||x|| <= 1), a fresh dataset of n = 100 draws and a
//! neighbour differing in the last point, Algorithm 1 with |M| = 1 for T = 400 iterates,
//! constant eta = 0.1, lambda = 0.1 (c = 1 - lambda*eta = 0.99, noise sigma^2 = (1 - c^2) beta0),
//! beta0 = 0.125; two chains under the synchronous coupling; the result is ||w_T - w'_T||^2.
//! A trial's random numbers come from its own ChaCha8 stream.

use criterion::{Criterion, criterion_group, criterion_main};
use dpclaims_empirical::algorithms::{NoiseCoupling, Sgld, Step, Workspace, squared_distance};
use dpclaims_empirical::problems::{FinitePopulation, LogisticPool};
use dpclaims_empirical::rng::StreamKey;
use std::hint::black_box;

fn stability_trial(c: &mut Criterion) {
    let pool = LogisticPool::generate(
        1024,
        10,
        &mut StreamKey::new(1, &["bench", "pool"]).trial(0),
    );
    let (n, horizon, eta, lambda, beta0) = (100, 400, 0.1, 0.1, 0.125);
    let steps = vec![Step::langevin(eta, 1.0 - lambda * eta, beta0); horizon - 1];
    let sgld = Sgld {
        population: &pool,
        steps: &steps,
        beta0,
    };
    let key = StreamKey::new(1, &["bench", "trials"]);
    let mut ws = Workspace::new(10);
    let (mut data, mut prime) = (Vec::new(), Vec::new());
    let mut trial = 0u64;
    c.bench_function("stability_trial", |b| {
        b.iter(|| {
            let mut rng = key.trial(trial);
            trial += 1;
            pool.draw_dataset(n, &mut rng, &mut data);
            prime.clone_from(&data);
            prime[n - 1] = pool.draw_point(&mut rng);
            let mut dist = 0.0;
            sgld.run_coupled(
                &data,
                &prime,
                NoiseCoupling::Synchronous,
                &mut rng,
                &mut ws,
                |t, a, b| {
                    if t == horizon {
                        dist = squared_distance(a, b);
                    }
                },
            );
            black_box(dist)
        })
    });
}

criterion_group!(benches, stability_trial);
criterion_main!(benches);
