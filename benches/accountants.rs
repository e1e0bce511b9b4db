//! `accountants`: epsilon of one DP-SGD run (q = 0.004266, sigma = 1.1, T = 14063,
//! delta = 1e-5, Poisson, add/remove) with each reference accountant.

use criterion::{Criterion, criterion_group, criterion_main};
use dpclaims_theorems::privacy::pld::{self, PldOptions};
use dpclaims_theorems::privacy::rdp::{self, Conversion};
use dpclaims_theorems::privacy::{DpSgd, Neighbouring, Sampling};
use std::hint::black_box;

fn accountants(c: &mut Criterion) {
    let mech = DpSgd::new(
        0.004266,
        1.1,
        14063,
        Sampling::Poisson,
        Neighbouring::AddRemove,
    )
    .expect("valid run");
    c.bench_function("rdp_epsilon", |b| {
        b.iter(|| black_box(rdp::dp_sgd_epsilon(&mech, 1e-5, Conversion::Improved).expect("valid")))
    });
    let orders = rdp::tf_privacy_orders();
    c.bench_function("rdp_epsilon_tf_grid", |b| {
        b.iter(|| {
            black_box(
                rdp::dp_sgd_epsilon_on_grid(&mech, 1e-5, Conversion::Improved, &orders)
                    .expect("valid"),
            )
        })
    });
    let mut group = c.benchmark_group("pld");
    group.sample_size(10);
    group.bench_function("pld_epsilon", |b| {
        b.iter(|| {
            black_box(pld::dp_sgd_epsilon(&mech, 1e-5, &PldOptions::default()).expect("valid"))
        })
    });
    group.finish();
}

criterion_group!(benches, accountants);
criterion_main!(benches);
