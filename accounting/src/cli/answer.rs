//! `dpclaims answer`: conformance queries on stdin answered by dpclaims' PLD accountant (the line
//! protocol of `conformance`).

use super::*;

/// The arguments of `dpclaims answer` (the help text is on [`AccountingCommand::Answer`](super::AccountingCommand::Answer)).
#[derive(clap::Args)]
pub struct AnswerArgs {
    /// PLD grid spacing.
    #[arg(long, default_value_t = 1e-4)]
    pub interval: f64,
}

/// Runs `dpclaims answer`.
pub fn run(args: AnswerArgs) -> Result<u8, Error> {
    let AnswerArgs { interval } = args;
    let mut out = std::io::stdout().lock();
    use crate::conformance::{Reply, Request, reply_line, self_reply};
    use std::io::BufRead;
    let opts = PldOptions {
        interval,
        ..PldOptions::default()
    };
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        if line.trim().is_empty() {
            continue;
        }
        // Every answer carries the query's id (none if it had none).
        let answer = match Request::parse_line(&line) {
            Ok((id, req)) => reply_line(id, req.query, &self_reply(&req, &opts)),
            Err(e) => reply_line(
                crate::conformance::line_id(&line),
                Query::Epsilon { delta: 0.0 },
                &Reply::Refused(e),
            ),
        };
        let _ = writeln!(out, "{answer}");
        let _ = out.flush();
    }
    Ok(0)
}
