//! Option checks shared by the subcommands: each returns the error that names the flag, its
//! value and the range (exit code 2), written once.

use super::Error;

/// `--tolerance`: a relative tolerance, finite and at least 0.
pub fn tolerance(x: f64) -> Result<f64, Error> {
    if x >= 0.0 && x.is_finite() {
        Ok(x)
    } else {
        Err(Error::Input(format!(
            "--tolerance {x} is out of range: expected a number >= 0"
        )))
    }
}

/// `--timeout`: seconds in (0, 1e9].
pub fn timeout(seconds: f64) -> Result<std::time::Duration, Error> {
    if seconds > 0.0 && seconds <= 1e9 {
        Ok(std::time::Duration::from_secs_f64(seconds))
    } else {
        Err(Error::Input(format!(
            "--timeout {seconds} is out of range: expected seconds in (0, 1e9]"
        )))
    }
}

/// `--confidence`: a level in (0, 1).
pub fn confidence(c: f64) -> Result<f64, Error> {
    if c > 0.0 && c < 1.0 {
        Ok(c)
    } else {
        Err(Error::Confidence(c))
    }
}

/// Reads `path`, or stdin when it is `-` or absent.
pub fn read_input(path: Option<&std::path::Path>) -> Result<String, Error> {
    match path.filter(|p| p.as_os_str() != "-") {
        Some(p) => std::fs::read_to_string(p)
            .map_err(|e| Error::Input(format!("cannot read {}: {e}", p.display()))),
        None => {
            let mut s = String::new();
            std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
                .map_err(|e| Error::Input(format!("cannot read stdin: {e}")))?;
            Ok(s)
        }
    }
}
