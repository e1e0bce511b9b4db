//! `contraction`: one step of the exact 1-D law propagation (A_small's kernel on N = 1600
//! cells, a 1602 x 1602 mat-vec; the kernel build once, separately) and one step of the 2-D
//! projected Monte Carlo chain.

use criterion::{Criterion, criterion_group, criterion_main};
use dpclaims_empirical::contraction::{BatchSampling, Grid, ProjectedDpSgd};
use dpclaims_empirical::rng::StreamKey;
use std::hint::black_box;

fn contraction(c: &mut Criterion) {
    let grid = Grid {
        lo: 0.0,
        hi: 1.0,
        cells: 1600,
    };
    let id = |w: f64| w;
    let down = |w: f64| w - 0.5;
    let mixture: [(f64, &(dyn Fn(f64) -> f64 + Sync)); 2] = [(0.9, &id), (0.1, &down)];
    c.bench_function("grid_kernel_build_n1600", |b| {
        b.iter(|| black_box(grid.kernel(0.05, &mixture)))
    });
    let kernel = grid.kernel(0.05, &mixture);
    let p = grid.from_point(0.5, 0.05, &mixture);
    let mut out = vec![0.0; grid.states()];
    c.bench_function("grid_propagation_step_n1600", |b| {
        b.iter(|| {
            kernel.apply(black_box(&p), &mut out);
            black_box(out[0])
        })
    });
    let key = StreamKey::new(1, &["bench", "contraction"]);
    let mut rng = key.trial(0);
    let mut w = [0.0; 2];
    let mut scratch = [0.0; 4];
    let alg = ProjectedDpSgd {
        dim: 2,
        n: 10,
        eta: 1.0,
        clip: 0.5,
        sigma: 0.05,
        radius: 0.5,
        contraction: 1.0,
        sampling: BatchSampling::WithoutReplacement { b: 1 },
    };
    let grad = |i: usize, _: &[f64], out: &mut [f64]| {
        out[0] = if i == 0 { 1000.0 } else { 0.0 };
        out[1] = 0.0;
    };
    c.bench_function("mc_disk_chain_step", |b| {
        b.iter(|| {
            alg.step(&mut w, &grad, &mut rng, &mut scratch);
            black_box(w[0])
        })
    });
}

criterion_group!(benches, contraction);
criterion_main!(benches);
