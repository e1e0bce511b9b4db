//! Cooperative cancellation of long computations: what lets Ctrl-C in Python stop the PLD
//! compositions and the audit's Monte Carlo instead of leaving them running in the background.
//!
//! One process-wide flag. A caller that gives up on its computations (the Python extension,
//! on `KeyboardInterrupt`) calls [`request`]; the long loops call [`check`] between their
//! expensive steps (each FFT composition, each convolution, each Monte Carlo run) and return
//! its error, which unwinds the computation through the ordinary error path; the caller
//! [`clear`]s the flag once none of its computations is running. The command line never
//! requests it, so for the binary [`check`] is one relaxed atomic load.

use crate::error::ParamError;
use std::sync::atomic::{AtomicBool, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// Asks every running computation to stop at its next [`check`].
pub fn request() {
    REQUESTED.store(true, Ordering::SeqCst);
}

/// Lets computations run again (after the cancelled ones have ended).
pub fn clear() {
    REQUESTED.store(false, Ordering::SeqCst);
}

/// Whether a cancellation is requested.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}

/// `Err` ([`ParamError::cancelled`]) when a cancellation is requested.
pub fn check() -> Result<(), ParamError> {
    if requested() {
        Err(ParamError::cancelled())
    } else {
        Ok(())
    }
}

// Tested from Python (python/tests/test_package.py, `test_ctrl_c_interrupts_a_long_computation`:
// the process uses no CPU a second after Ctrl-C): a unit test here would set the flag for every
// test of the crate running beside it.
