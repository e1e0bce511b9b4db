//! Rendering outcomes: a terminal table, JSON lines, and JSON rounded for snapshots.

use crate::claims::Claim;
use crate::verdict::{Outcome, Verdict};
use serde_json::Value;

/// `x` rounded to `digits` significant decimal digits (non-finite values unchanged).
pub fn round_sig(x: f64, digits: i32) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let scale = 10f64.powi(digits - 1 - x.abs().log10().floor() as i32);
    let r = (x * scale).round() / scale;
    // Parse back through the shortest representation so snapshots print e.g. 0.03, not 0.030000000000000002.
    format!("{r:.*e}", (digits - 1) as usize)
        .parse()
        .unwrap_or(r)
}

/// A JSON value with every float rounded to 6 significant digits (for snapshots).
pub fn rounded(v: Value) -> Value {
    match v {
        Value::Number(n) if n.is_f64() => n
            .as_f64()
            .map(|x| serde_json::json!(round_sig(x, 6)))
            .unwrap_or(Value::Number(n)),
        Value::Array(items) => Value::Array(items.into_iter().map(rounded).collect()),
        Value::Object(map) => {
            Value::Object(map.into_iter().map(|(k, v)| (k, rounded(v))).collect())
        }
        other => other,
    }
}

/// One outcome as a JSON line (full precision).
pub fn json_line(o: &Outcome) -> String {
    serde_json::to_string(o).expect("outcomes serialize")
}

fn num(x: f64) -> String {
    if x.is_finite() {
        format!("{:.6}", round_sig(x, 6))
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string()
    } else {
        format!("{x}")
    }
}

fn short(x: f64) -> String {
    if x != 0.0 && x.is_finite() && (x.abs() < 1e-3 || x.abs() >= 1e6) {
        format!("{x:.4e}")
    } else {
        num(x)
    }
}

/// A human-readable table of outcomes followed by a one-line summary.
pub fn table(outcomes: &[Outcome]) -> String {
    let mut rows = vec![[
        "claim".to_string(),
        "verdict".into(),
        "measured".into(),
        "interval".into(),
        "rel".into(),
        "bound".into(),
        "tightness".into(),
        "n".into(),
        "case".into(),
    ]];
    for o in outcomes {
        let m = &o.measured;
        rows.push([
            o.claim.clone(),
            o.verdict.as_str().to_string(),
            short(m.mean),
            format!("[{}, {}]", short(m.lower), short(m.upper)),
            o.relation.symbol().to_string(),
            short(o.bound),
            format!("{:.4}", o.tightness),
            m.n.to_string(),
            o.params.compact(),
        ]);
    }
    let widths: Vec<usize> = (0..9)
        .map(|j| rows.iter().map(|r| r[j].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for r in &rows {
        let line: Vec<String> = r
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect();
        out.push_str(line.join("  ").trim_end());
        out.push('\n');
    }
    let count = |v: Verdict| outcomes.iter().filter(|o| o.verdict == v).count();
    if let Some(o) = outcomes.first() {
        out.push_str(&format!(
            "{} outcomes: {} respected, {} violated, {} inconclusive (seed {}, family-wise confidence {}, per outcome {:.6}{})\n",
            outcomes.len(),
            count(Verdict::Respected),
            count(Verdict::Violated),
            count(Verdict::Inconclusive),
            o.seed,
            o.family_confidence,
            outcomes.iter().find(|o| o.measured.n > 0).map_or(1.0, |o| o.measured.confidence),
            o.mutant.as_ref().map(|m| format!(", mutant {m}")).unwrap_or_default(),
        ));
    }
    out
}

/// `dpclaims list` as text.
pub fn list_table(claims: &[&dyn Claim]) -> String {
    let mut out = String::new();
    for c in claims {
        let i = c.info();
        out.push_str(&format!(
            "{}\n  {} — {}\n  {}\n  mutants: {}\n",
            i.id,
            i.paper,
            i.result,
            i.statement,
            i.mutants
                .iter()
                .map(|m| m.name)
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding() {
        assert_eq!(round_sig(0.030000000000000002, 6), 0.03);
        assert_eq!(round_sig(123456789.0, 6), 123457000.0);
        assert_eq!(round_sig(-1.23456789e-7, 3), -1.23e-7);
        assert_eq!(round_sig(0.0, 6), 0.0);
    }
}
