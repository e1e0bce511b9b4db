//! `langevin`: one ULA step on f = ||x||^2/2 + sum log cosh x_i in d = 10 and d = 1000, and one
//! path of Theorem 12's likelihood-ratio estimator (d = 2, eta = 0.05, T = 20, k = 10, stop at
//! r = 0.5), each from its own ChaCha8 stream.

use criterion::{Criterion, criterion_group, criterion_main};
use dpclaims_empirical::langevin::{LogCoshQuadratic, StopRule, path_log_ratio, ula_movement};
use dpclaims_empirical::rng::StreamKey;
use std::hint::black_box;

fn langevin(c: &mut Criterion) {
    let key = StreamKey::new(1, &["bench", "langevin"]);
    for d in [10usize, 1000] {
        let pot = LogCoshQuadratic { d };
        let x0 = vec![0.5; d];
        let mut ws = [vec![0.0; d], vec![0.0; d], vec![0.0; d], vec![0.0; d]];
        let mut i = 0u64;
        // One step, one sub-grid point: exactly the ULA update x - eta grad f(x) + sqrt(2 eta) xi.
        c.bench_function(&format!("ula_step_d{d}"), |b| {
            b.iter(|| {
                i += 1;
                black_box(ula_movement(
                    &pot,
                    &x0,
                    0.01,
                    1,
                    1,
                    &mut key.trial(i),
                    &mut ws,
                ))
            })
        });
    }
    let pot = LogCoshQuadratic { d: 2 };
    let mut ws = [vec![0.0; 2], vec![0.0; 2], vec![0.0; 2], vec![0.0; 2]];
    let mut i = 0u64;
    c.bench_function("path_estimator_per_path", |b| {
        b.iter(|| {
            i += 1;
            black_box(path_log_ratio(
                &pot,
                &[2.0, -1.0],
                0.05,
                20,
                10,
                StopRule::Previous(0.5),
                1.0,
                &mut key.trial(i),
                &mut ws,
            ))
        })
    });
}

criterion_group!(benches, langevin);
criterion_main!(benches);
