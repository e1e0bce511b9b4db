//! `dpclaims answer`: conformance queries on stdin answered by dpclaims' PLD accountant (the line
//! protocol of `conformance`).

use super::*;

/// The arguments of `dpclaims answer` (the help text is on [`AccountingCommand::Answer`](super::AccountingCommand::Answer)).
#[derive(clap::Args)]
pub struct AnswerArgs {
    /// PLD grid spacing (a query's `"settings": {"interval": x}` overrides it).
    #[arg(long, default_value_t = 1e-4)]
    pub interval: f64,
    /// Print the declaration (event types, relations, queries, settings) and exit.
    #[arg(long)]
    pub supports: bool,
}

/// Event types of the format with no certified dpclaims reference ("metamorphic checks only":
/// [`crate::privacy::event_pld`] refuses them).
pub const METAMORPHIC_ONLY: [&str; 5] = [
    "ZCDp",
    "MixtureOfGaussians",
    "TruncatedSubsampledGaussian",
    "SampledWithReplacement",
    "RepeatAndSelect",
];

/// What `dpclaims answer` supports: every event type it certifies (all but
/// [`METAMORPHIC_ONLY`]), both relations, the ε and δ queries and the calibration of a noise
/// multiplier ([`crate::conformance::calibrated_sigma`]), and the setting `interval` (the grid
/// spacing; the suite draws 1e-3 or 3e-4).
pub fn declaration() -> serde_json::Value {
    let events: Vec<&str> = crate::privacy::event::TYPES
        .into_iter()
        .filter(|t| !METAMORPHIC_ONLY.contains(t))
        .collect();
    serde_json::json!({
        "events": events,
        "relations": ["add-remove", "replace-one"],
        "queries": ["epsilon", "delta", crate::conformance::CALIBRATE],
        "settings": {"interval": {"choices": [1e-3, 3e-4]}},
    })
}

/// The grid options of one query: `interval`, or its `settings.interval` (a number in
/// (0, 1]; any other setting is an error naming it).
fn query_options(
    interval: f64,
    settings: &crate::conformance::Settings,
) -> Result<PldOptions, String> {
    let mut opts = PldOptions {
        interval,
        ..PldOptions::default()
    };
    for (name, v) in settings {
        match (name.as_str(), v.as_f64()) {
            ("interval", Some(x)) if x > 0.0 && x <= 1.0 => opts.interval = x,
            ("interval", _) => {
                return Err(format!(
                    "setting `interval` = {v}: expected a number in (0, 1]"
                ));
            }
            _ => {
                return Err(format!(
                    "unknown setting `{name}` (dpclaims answer takes `interval`)"
                ));
            }
        }
    }
    Ok(opts)
}

/// Runs `dpclaims answer`.
pub fn run(args: AnswerArgs) -> Result<u8, Error> {
    let AnswerArgs { interval, supports } = args;
    let mut out = std::io::stdout().lock();
    if supports {
        let _ = writeln!(out, "{}", declaration());
        return Ok(0);
    }
    use crate::conformance::{Reply, Request, reply_line, self_reply};
    use std::io::BufRead;
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        if line.trim().is_empty() {
            continue;
        }
        // Every answer carries the query's id (none if it had none).
        let answer = match Request::parse_line(&line) {
            Ok((id, req)) => match query_options(interval, &req.settings) {
                Ok(opts) => reply_line(id, req.key(), &self_reply(&req, &opts)),
                Err(e) => reply_line(id, req.key(), &Reply::Error(e)),
            },
            Err(e) => reply_line(
                crate::conformance::line_id(&line),
                "epsilon",
                &Reply::Refused(e),
            ),
        };
        let _ = writeln!(out, "{answer}");
        let _ = out.flush();
    }
    Ok(0)
}
