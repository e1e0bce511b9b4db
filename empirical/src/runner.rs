//! Parallel trials with a deterministic reduction.
//!
//! Trials are grouped in fixed blocks of [`BLOCK`] consecutive indices. Each block is run
//! sequentially on one thread into a fresh accumulator; blocks run in parallel (rayon) and
//! their accumulators are then merged **in block order** on one thread. Floating-point sums
//! are therefore the same for any number of threads. A shard of a run is a range of whole
//! blocks, so merging shards block by block reproduces the one-pass result exactly.

use rayon::prelude::*;
use std::ops::Range;

/// Trials per block.
pub const BLOCK: u64 = 256;

/// An accumulator of per-trial results that can absorb the accumulator of a later block.
pub trait Merge: Send {
    /// Absorb `later`, whose trials all come after this one's.
    fn merge(&mut self, later: Self);
}

impl<T: Merge> Merge for Vec<T> {
    fn merge(&mut self, later: Self) {
        assert_eq!(
            self.len(),
            later.len(),
            "merging accumulators of different shapes"
        );
        for (a, b) in self.iter_mut().zip(later) {
            a.merge(b);
        }
    }
}

impl<A: Merge, B: Merge> Merge for (A, B) {
    fn merge(&mut self, later: Self) {
        self.0.merge(later.0);
        self.1.merge(later.1);
    }
}

/// The blocks `[k*BLOCK, (k+1)*BLOCK) ∩ trials` covering `trials`, in order.
pub fn blocks(trials: Range<u64>) -> Vec<Range<u64>> {
    let mut out = Vec::new();
    let mut start = trials.start;
    while start < trials.end {
        let end = ((start / BLOCK + 1) * BLOCK).min(trials.end);
        out.push(start..end);
        start = end;
    }
    out
}

/// The `index`-th (1-based) of `count` disjoint slices of a run, for splitting huge runs over
/// machines. Slices are unions of whole blocks, so merging their per-block accumulators in order
/// reproduces the one-pass result bit for bit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    /// Which slice, $1\le K\le N$.
    pub index: u64,
    /// Number of slices $N$.
    pub count: u64,
}

impl Shard {
    /// Parses `K/N` with `1 <= K <= N`.
    pub fn parse(s: &str) -> Result<Self, String> {
        let bad = || format!("--shard {s:?}: expected K/N with integers 1 <= K <= N, e.g. 2/3");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count): (u64, u64) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Self { index, count })
    }

    /// The trials of this slice of a run of `trials` trials.
    pub fn trials(&self, trials: u64) -> Range<u64> {
        let blocks = trials.div_ceil(BLOCK);
        let first = blocks * (self.index - 1) / self.count;
        let last = blocks * self.index / self.count;
        (first * BLOCK).min(trials)..(last * BLOCK).min(trials)
    }
}

/// The trials a run (or its shard) covers.
pub fn trial_range(trials: u64, shard: Option<Shard>) -> Range<u64> {
    shard.map_or(0..trials, |s| s.trials(trials))
}

/// Runs the trials of `range` block by block and returns one accumulator per block, in order.
///
/// `init` creates a block's scratch space `S` (reused by the block's trials, so trials need not
/// allocate) and its empty accumulator `A`; `trial(scratch, acc, i)` runs trial `i`.
pub fn run_blocks<S, A, I, F>(range: Range<u64>, init: I, trial: F) -> Vec<A>
where
    A: Merge,
    I: Fn() -> (S, A) + Sync,
    F: Fn(&mut S, &mut A, u64) + Sync,
{
    blocks(range)
        .into_par_iter()
        .map(|block| {
            let (mut scratch, mut acc) = init();
            for i in block {
                trial(&mut scratch, &mut acc, i);
            }
            acc
        })
        .collect()
}

/// Merges accumulators in order (`None` for an empty list).
pub fn fold<A: Merge>(accs: Vec<A>) -> Option<A> {
    let mut it = accs.into_iter();
    let mut first = it.next()?;
    for a in it {
        first.merge(a);
    }
    Some(first)
}

/// Runs trials `0..n` and returns their merged accumulator (the empty one when `n = 0`).
pub fn run_trials<S, A, I, F>(n: u64, init: I, trial: F) -> A
where
    A: Merge,
    I: Fn() -> (S, A) + Sync,
    F: Fn(&mut S, &mut A, u64) + Sync,
{
    match fold(run_blocks(0..n, &init, trial)) {
        Some(acc) => acc,
        None => init().1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_trials() {
        for (trials, n) in [(1000u64, 3u64), (100, 5), (256 * 7, 2), (1, 4)] {
            let mut next = 0;
            for k in 1..=n {
                let r = Shard { index: k, count: n }.trials(trials);
                assert_eq!(r.start, next);
                assert!(r.start % BLOCK == 0 || r.start == trials);
                next = r.end;
            }
            assert_eq!(next, trials);
        }
        for bad in ["0/2", "3/2", "x/y", "1", "1/0", ""] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(Shard::parse("2/3"), Ok(Shard { index: 2, count: 3 }));
    }

    #[test]
    fn blocks_cover_the_range_and_align() {
        let b = blocks(100..700);
        assert_eq!(b.first().unwrap().start, 100);
        assert_eq!(b.last().unwrap().end, 700);
        assert!(
            b.windows(2)
                .all(|w| w[0].end == w[1].start && w[1].start % BLOCK == 0)
        );
        assert!(blocks(5..5).is_empty());
    }
}
