//! `subspace`: one PDP-SGD step at p = 1000 (P-lowrank, k = 10, m = 100 public samples,
//! minibatch 50 of n = 1000), with the public eigenbasis refresh (m x m eigenproblem) and without,
//! and one plain DP-SGD step on the same problem for comparison.

use criterion::{Criterion, criterion_group, criterion_main};
use dpclaims_empirical::rng::StreamKey;
use dpclaims_empirical::subspace::{LogisticDesign, pdp_step, public_eigenbasis};
use std::hint::black_box;

fn subspace(c: &mut Criterion) {
    let key = StreamKey::new(1, &["bench", "subspace"]);
    let pool = LogisticDesign::generate(1100, 1000, 0.15, &mut key.trial(0));
    let private: Vec<usize> = (0..1000).collect();
    let public: Vec<usize> = (1000..1100).collect();
    let mut w = vec![0.01; 1000];
    let mut idx = vec![0usize; 50];
    let basis = public_eigenbasis(&pool, &w, &public, 10);
    let mut i = 0u64;
    c.bench_function("dp_sgd_step_p1000_no_projection", |b| {
        b.iter(|| {
            i += 1;
            let mut rng = key.trial(i);
            pdp_step(
                &pool, &mut w, None, &private, &mut idx, 0.01, 0.1, true, 1.0, &mut rng,
            );
            black_box(w[0])
        })
    });
    for (name, refresh) in [
        ("pdp_sgd_step_p1000_k10_without_refresh", false),
        ("pdp_sgd_step_p1000_k10_m100_with_refresh", true),
    ] {
        c.bench_function(name, |b| {
            b.iter(|| {
                i += 1;
                let fresh;
                let v = if refresh {
                    fresh = public_eigenbasis(&pool, &w, &public, 10);
                    &fresh
                } else {
                    &basis
                };
                let mut rng = key.trial(i);
                pdp_step(
                    &pool,
                    &mut w,
                    Some(v),
                    &private,
                    &mut idx,
                    0.01,
                    0.1,
                    true,
                    1.0,
                    &mut rng,
                );
                black_box(w[0])
            })
        });
    }
}

criterion_group!(benches, subspace);
criterion_main!(benches);
