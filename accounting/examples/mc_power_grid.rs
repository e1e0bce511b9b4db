//! The power of the audit's Monte Carlo alone (issue 30, item 3): on Poisson add/remove runs
//! (q from 1e-3 to 0.05, T up to 1e4, sigma such that the true eps at delta = 1e-5 is in
//! 0.5..10), claimed eps = 0.9 x the PLD bracket's lower end (certainly 10% below the truth)
//! and 1.02 x its upper end (certainly above it), audited with `--no-reference` at the default
//! budget. One line per row: the verdicts, the lower limits, the trials and the seconds.
//!
//! `cargo run -p dpclaims-accounting --example mc_power_grid [q,T,sigma ...]` (no arguments:
//! the grid; `DPCLAIMS_SEED` sets the seed).

use dpclaims_accounting::audit::{AuditOptions, Format, audit, parse, validate};
use dpclaims_accounting::privacy::pld::{PldOptions, dp_sgd_epsilon};
use dpclaims_accounting::privacy::{DpSgd, Neighbouring, Sampling};
use std::time::Instant;

fn main() {
    let seed: u64 = std::env::var("DPCLAIMS_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    // q,T,sigma[,eps_lo,eps_hi] (the bracket, if known, skips the PLD).
    let args: Vec<Vec<f64>> = std::env::args()
        .skip(1)
        .map(|a| a.split(',').map(|v| v.parse().unwrap()).collect())
        .collect();
    let delta = 1e-5;
    let eps_of = |q: f64, t: u64, sigma: f64| {
        let mech = DpSgd::new(q, sigma, t, Sampling::Poisson, Neighbouring::AddRemove).ok()?;
        dp_sgd_epsilon(&mech, delta, &PldOptions::default()).ok()
    };
    let mut rows: Vec<(f64, u64, f64, f64, f64)> = Vec::new();
    if args.is_empty() {
        let sigmas = [0.3, 0.4, 0.5, 0.6, 0.8, 1.0, 1.5, 2.0, 3.0, 5.0, 8.0];
        for q in [1e-3, 3e-3, 1e-2, 3e-2, 5e-2] {
            for t in [10u64, 100, 1000, 10_000] {
                let mut found: Vec<(f64, f64, f64)> = Vec::new();
                for &s in &sigmas {
                    if let Some(b) = eps_of(q, t, s) {
                        if b.optimistic >= 0.5 && b.pessimistic <= 10.0 {
                            found.push((s, b.optimistic, b.pessimistic));
                        }
                    }
                }
                // Up to three: the eps nearest 1, 3 and 8 (log scale).
                let mut picked: Vec<(f64, f64, f64)> = Vec::new();
                for target in [1.0f64, 3.0, 8.0] {
                    if let Some(best) = found.iter().min_by(|a, b| {
                        (a.1.ln() - target.ln())
                            .abs()
                            .total_cmp(&(b.1.ln() - target.ln()).abs())
                    }) {
                        if !picked.contains(best) {
                            picked.push(*best);
                        }
                    }
                }
                for (s, lo, hi) in picked {
                    rows.push((q, t, s, lo, hi));
                }
            }
        }
    } else {
        for a in args {
            let (q, t, s) = (a[0], a[1] as u64, a[2]);
            if a.len() == 5 {
                rows.push((q, t, s, a[3], a[4]));
            } else {
                let b = eps_of(q, t, s).expect("a bracket");
                println!("{q},{t},{s},{},{}", b.optimistic, b.pessimistic);
                rows.push((q, t, s, b.optimistic, b.pessimistic));
            }
        }
    }
    let opts = AuditOptions {
        seed,
        no_reference: true,
        ..AuditOptions::default()
    };
    println!(
        "{:>6} {:>6} {:>5} {:>9} {:>9} | {:>9} {:>10} {:>10} {:>8} {:>6} | {:>9} {:>10} {:>6}",
        "q",
        "T",
        "sigma",
        "eps_lo",
        "eps_hi",
        "low-claim",
        "mc_lower",
        "mc_mean",
        "trials",
        "secs",
        "high",
        "mc_lower",
        "secs"
    );
    let (mut missed, mut wrong) = (0, 0);
    for (q, t, s, lo, hi) in &rows {
        let run = |eps: f64| {
            let text = format!(
                r#"{{"name": "g", "sampling": "poisson", "q": {q}, "sigma": {s}, "steps": {t}, "delta": {delta}, "epsilon": {eps}}}"#
            );
            let (line, obj) = parse(&text, Format::JsonLines)
                .remove(0)
                .expect("a valid row");
            let row = validate(line, obj, true).expect("a valid row");
            let started = Instant::now();
            let a = audit(&[row], &opts, false).remove(0).expect("an audit");
            (a, started.elapsed().as_secs_f64())
        };
        let (a, secs) = run(0.9 * lo);
        let (b, secs_b) = run(1.02 * hi);
        let refuted = a.monte_carlo.delta_lower > delta;
        let false_alarm = b.monte_carlo.delta_lower > delta;
        missed += usize::from(!refuted);
        wrong += usize::from(false_alarm);
        println!(
            "{q:>6} {t:>6} {s:>5} {lo:>9.4} {hi:>9.4} | {:>9} {:>10.3e} {:>10.3e} {:>8} {secs:>6.1} | {:>9} {:>10.3e} {secs_b:>6.1}   {}",
            if refuted { "refuted" } else { "MISSED" },
            a.monte_carlo.delta_lower,
            a.monte_carlo.delta_mean,
            a.monte_carlo.trials,
            if false_alarm { "WRONG" } else { "ok" },
            b.monte_carlo.delta_lower,
            a.monte_carlo.proposal,
        );
    }
    println!(
        "{} rows: {missed} 10%-low claims missed, {wrong} 2%-high claims refuted",
        rows.len()
    );
}
