//! The settings of a discretisation and a composition: grid spacing, tail mass, [`Focus`] (the
//! FFT's tilt) and the point budget, and the checks every composition makes of them.

use crate::error::ParamError;
use serde::{Deserialize, Serialize};

/// The largest FFT length a composition may use.
pub const MAX_FFT: usize = 1 << 27;

/// The error for a grid too fine for the point budget ([`ParamError::is_too_fine`]: callers
/// may retry with a coarser grid).
pub(crate) fn too_fine(interval: f64, points: usize, limit: usize) -> ParamError {
    ParamError::too_fine(
        interval,
        format_args!("the composition needs {points} points, more than {limit}"),
    )
}

/// Discretisation settings.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PldOptions {
    /// Grid spacing $\Delta_L$ of the privacy loss.
    pub interval: f64,
    /// Probability mass allowed outside the grid per step and outside the composed window
    /// per side; it is carried as $+\infty$ (pessimistic) or subtracted (optimistic).
    pub tail_mass: f64,
    /// Where the composition is to be most accurate (the FFT's tilt, see
    /// [`super::tilted_fft`]). Every answer is a bracket whatever the focus; away from it the
    /// bracket is wider.
    #[serde(default)]
    pub focus: Focus,
    /// The most points one composition's FFT may use (at most [`MAX_FFT`]); past it the
    /// composition is refused with an error of kind [`GridTooFine`](crate::ParamErrorKind::GridTooFine).
    #[serde(default = "default_max_points")]
    pub max_points: usize,
}

fn default_max_points() -> usize {
    MAX_FFT
}

impl Default for PldOptions {
    fn default() -> Self {
        Self {
            interval: 1e-4,
            tail_mass: 1e-15,
            focus: Focus::default(),
            max_points: MAX_FFT,
        }
    }
}

impl PldOptions {
    /// The same options focused on `focus`.
    pub fn focused(&self, focus: Focus) -> Self {
        Self { focus, ..*self }
    }

    /// For a composition of `steps` steps: with a [`Focus::Delta`] focus, the tail mass lowered
    /// to at most $10^{-3}\delta/T$, so that the $T$ steps' mass beyond the grid (carried at
    /// $+\infty$ by the pessimistic bound) stays far below $\delta$.
    pub fn for_steps(&self, steps: f64) -> Self {
        match self.focus {
            Focus::Delta(d) if d > 0.0 && steps >= 1.0 => Self {
                tail_mass: self.tail_mass.min(1e-3 * d / steps).max(1e-250),
                ..*self
            },
            _ => *self,
        }
    }
}

/// The region a composition is tuned for: the exponential tilt $\theta\ge0$ of its FFT.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Focus {
    /// The losses where $\delta(\epsilon)$ is near this $\delta$ (saddle point
    /// $\Lambda(\theta)-\theta\Lambda'(\theta)=\ln\delta$, $\Lambda$ the composed log-MGF).
    Delta(f64),
    /// The losses near this $\epsilon$ ($\Lambda'(\theta)=\epsilon$).
    Epsilon(f64),
    /// This tilt $\theta$ itself.
    Tilt(f64),
}

impl Default for Focus {
    fn default() -> Self {
        Focus::Delta(1e-6)
    }
}

impl Focus {
    /// The tilt for a composition whose log-MGF is `log_mgf` (finite part).
    pub fn tilt(&self, log_mgf: &dyn Fn(f64) -> f64) -> f64 {
        const THETA_MAX: f64 = 16.0;
        let slope = |t: f64| {
            let h = 1e-5 * t.max(1.0);
            (log_mgf(t + h) - log_mgf((t - h).max(0.0))) / (t + h - (t - h).max(0.0))
        };
        // Bisection of a non-decreasing g on [0, THETA_MAX] for g(θ) = 0.
        let solve = |g: &dyn Fn(f64) -> f64| {
            if !(g(0.0) < 0.0) {
                return 0.0;
            }
            if g(THETA_MAX) <= 0.0 {
                return THETA_MAX;
            }
            let (mut lo, mut hi) = (0.0, THETA_MAX);
            for _ in 0..50 {
                let mid = 0.5 * (lo + hi);
                if g(mid) < 0.0 { lo = mid } else { hi = mid }
            }
            0.5 * (lo + hi)
        };
        match *self {
            Focus::Tilt(t) => t.max(0.0),
            Focus::Epsilon(e) => solve(&|t| slope(t) - e),
            Focus::Delta(d) if d > 0.0 && d < 1.0 => {
                let ln_d = d.ln();
                // Λ(θ) − θΛ'(θ) decreases from 0: find where it reaches ln δ.
                solve(&|t| ln_d - (log_mgf(t) - t * slope(t)))
            }
            Focus::Delta(_) => 0.0,
        }
    }
}

impl PldOptions {
    /// Checks the settings: `interval` in (0, 1], `max_points` in $[2, 2^{27}]$, `tail_mass`
    /// in (0, 1e-3); the error names the setting.
    pub fn check(&self) -> Result<(), ParamError> {
        validate(self)
    }
}

pub(crate) fn validate(opts: &PldOptions) -> Result<(), ParamError> {
    if !(opts.interval > 0.0 && opts.interval <= 1.0) {
        return Err(ParamError::new(
            "interval",
            opts.interval,
            "a grid spacing in (0, 1]",
        ));
    }
    if !(2..=MAX_FFT).contains(&opts.max_points) {
        return Err(ParamError::new(
            "max_points",
            opts.max_points,
            format!("between 2 and {MAX_FFT} points"),
        ));
    }
    if !(opts.tail_mass > 0.0 && opts.tail_mass < 1e-3) {
        return Err(ParamError::new(
            "tail_mass",
            opts.tail_mass,
            "a number in (0, 1e-3)",
        ));
    }
    Ok(())
}
