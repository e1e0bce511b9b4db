//! A deliberately broken accountant for `dpclaims conformance --command`: it speaks the line
//! protocol and answers with dpclaims' own PLD accountant, but ignores the `count` of every
//! `SelfComposed` event (it accounts one repetition), a regression the `self-composition`
//! property must catch. Run it with
//! `cargo build --example broken_accountant && dpclaims conformance --command target/debug/examples/broken_accountant`.

use dpclaims::conformance::{Reply, Request, reply_line, self_reply};
use dpclaims_theorems::privacy::event::Event;
use dpclaims_theorems::privacy::pld::PldOptions;
use std::io::{BufRead, Write};

/// The bug: `SelfComposed(e, k)` becomes `e`.
fn forget_counts(e: Event) -> Event {
    match e {
        Event::SelfComposed { event, count } if count > 0 => forget_counts(*event),
        Event::PoissonSampled {
            sampling_probability,
            event,
        } => Event::PoissonSampled {
            sampling_probability,
            event: Box::new(forget_counts(*event)),
        },
        Event::Composed { events } => Event::Composed {
            events: events.into_iter().map(forget_counts).collect(),
        },
        other => other,
    }
}

/// The broken accountant's reply to one query: dpclaims' PLD answer for the event with every
/// count forgotten.
pub fn broken_reply(req: &Request, opts: &PldOptions) -> Reply {
    let mut req = req.clone();
    req.doc.event = forget_counts(req.doc.event);
    self_reply(&req, opts)
}

#[allow(dead_code)] // a module of the test binary too (tests/conformance.rs)
fn main() {
    let opts = PldOptions {
        interval: 1e-3,
        ..PldOptions::default()
    };
    let stdout = std::io::stdout();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        // The answer carries the query's id.
        let answer = match Request::parse_line(&line) {
            Ok((id, req)) => reply_line(id, req.key(), &broken_reply(&req, &opts)),
            Err(e) => reply_line(
                dpclaims::conformance::line_id(&line),
                "epsilon",
                &Reply::Refused(e),
            ),
        };
        let mut out = stdout.lock();
        let _ = writeln!(out, "{answer}");
        let _ = out.flush();
    }
}
