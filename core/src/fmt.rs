//! Number and table formatting shared by the harness's text output and the renderers: rounding
//! to significant digits (snapshots), aligned columns.

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

/// Rows of cells as left-aligned columns two spaces apart, one line each.
pub fn aligned<const N: usize>(rows: &[[String; N]]) -> String {
    let widths: Vec<usize> = (0..N)
        .map(|j| rows.iter().map(|r| r[j].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for r in rows {
        let line: Vec<String> = r
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect();
        out.push_str(line.join("  ").trim_end());
        out.push('\n');
    }
    out
}
