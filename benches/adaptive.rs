//! `adaptive`: one DP Adam step at p = 10^4 with the full-batch gradient of n = 1000 P-cauchy
//! points (the gradient pass dominates: n p = 10^7 multiply-adds), and one DP GD run of the
//! `adaptive.thm4.derived` size (n = 2000, p = 20, T = 31).

use criterion::{Criterion, criterion_group, criterion_main};
use dpclaims_empirical::adaptive::{Averaging, CauchyPool, ClipReading, Dpagd, DpagdWorkspace};
use dpclaims_empirical::rng::StreamKey;
use std::hint::black_box;

fn adaptive(c: &mut Criterion) {
    let key = StreamKey::new(1, &["bench", "adaptive"]);
    let adam = Averaging::Adam {
        beta1: 0.9,
        beta2: 0.99,
        nu: 1e-3,
        lambda: 1.0,
        clip: ClipReading::Sum,
    };
    let big = CauchyPool::generate(1000, 10_000, &mut key.trial(0));
    let mut ws = DpagdWorkspace::new(10_000);
    let step = Dpagd {
        eta: 0.01,
        steps: 1,
        sigma: 0.01,
        averaging: adam,
        clip: f64::INFINITY,
        gradient_scale: 1.0,
    };
    let mut i = 0u64;
    c.bench_function("dp_adam_step_p1e4_n1000", |b| {
        b.iter(|| {
            i += 1;
            black_box(step.run(&big, None, &mut key.trial(i), &mut ws))
        })
    });
    let small = CauchyPool::generate(2000, 20, &mut key.trial(1));
    let mut ws = DpagdWorkspace::new(20);
    let gd = Dpagd {
        eta: 1.0,
        steps: 31,
        sigma: 0.0189,
        averaging: Averaging::Gd,
        clip: f64::INFINITY,
        gradient_scale: 1.0,
    };
    c.bench_function("dp_gd_run_n2000_p20_t31", |b| {
        b.iter(|| {
            i += 1;
            black_box(gd.run(&small, None, &mut key.trial(i), &mut ws))
        })
    });
}

criterion_group!(benches, adaptive);
criterion_main!(benches);
