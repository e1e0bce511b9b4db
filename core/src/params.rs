//! Claim parameters: a case of a claim is a named set of values (`n`, `eta`, `t`, `trials`,
//! ...). Users override them with `--set key=value`; typed getters validate and name the
//! parameter in every error.

use crate::Error;
use dpclaims_accounting::ParamError;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// An ordered map from parameter name to JSON value.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Params(pub BTreeMap<String, Value>);

/// Builds [`Params`] from `key => value` pairs: `params! { "n" => 100, "eta" => 0.1 }`.
#[macro_export]
macro_rules! params {
    ($($k:expr => $v:expr),* $(,)?) => {{
        let mut p = $crate::params::Params::default();
        $( p.set($k, $crate::serde_json::json!($v)); )*
        p
    }};
}

impl Params {
    /// Sets `key` to `value` (replacing any value it had).
    pub fn set(&mut self, key: &str, value: Value) {
        self.0.insert(key.to_string(), value);
    }

    /// Whether the case has a parameter `key`.
    pub fn contains(&self, key: &str) -> bool {
        self.0.contains_key(key)
    }

    fn value(&self, key: &str) -> Result<&Value, ParamError> {
        self.0
            .get(key)
            .ok_or_else(|| ParamError::new(key, "(missing)", "a value"))
    }

    /// A finite number.
    pub fn f64(&self, key: &str) -> Result<f64, ParamError> {
        let v = self.value(key)?;
        v.as_f64()
            .filter(|x| x.is_finite())
            .ok_or_else(|| ParamError::new(key, v, "a finite number"))
    }

    /// A non-negative integer.
    pub fn u64(&self, key: &str) -> Result<u64, ParamError> {
        let v = self.value(key)?;
        v.as_u64()
            .ok_or_else(|| ParamError::new(key, v, "a non-negative integer"))
    }

    /// A string.
    pub fn str(&self, key: &str) -> Result<&str, ParamError> {
        let v = self.value(key)?;
        v.as_str()
            .ok_or_else(|| ParamError::new(key, v, "a string"))
    }

    /// One of `allowed` (a string).
    pub fn choice(&self, key: &str, allowed: &[&str]) -> Result<String, ParamError> {
        let s = self.str(key)?;
        if allowed.contains(&s) {
            Ok(s.to_string())
        } else {
            Err(ParamError::new(
                key,
                s,
                format!("one of {}", allowed.join(", ")),
            ))
        }
    }

    /// A non-empty list of non-negative integers (a single integer is a list of one).
    pub fn u64_list(&self, key: &str) -> Result<Vec<u64>, ParamError> {
        let v = self.value(key)?;
        let bad = || ParamError::new(key, v, "a non-empty list of non-negative integers");
        match v {
            Value::Array(items) if !items.is_empty() => {
                items.iter().map(|x| x.as_u64().ok_or_else(bad)).collect()
            }
            Value::Number(_) => Ok(vec![v.as_u64().ok_or_else(bad)?]),
            _ => Err(bad()),
        }
    }

    /// A non-empty list of finite numbers (a single number is a list of one).
    pub fn f64_list(&self, key: &str) -> Result<Vec<f64>, ParamError> {
        let v = self.value(key)?;
        let bad = || ParamError::new(key, v, "a non-empty list of finite numbers");
        let num = |x: &Value| x.as_f64().filter(|f| f.is_finite()).ok_or_else(bad);
        match v {
            Value::Array(items) if !items.is_empty() => items.iter().map(num).collect(),
            Value::Number(_) => Ok(vec![num(v)?]),
            _ => Err(bad()),
        }
    }

    /// The parameters without the given keys, as canonical JSON (used to label random streams,
    /// so that e.g. changing the number of trials keeps every trial's numbers).
    pub fn label_without(&self, skip: &[&str]) -> String {
        let kept: BTreeMap<_, _> = self
            .0
            .iter()
            .filter(|(k, _)| !skip.contains(&k.as_str()))
            .collect();
        serde_json::to_string(&kept).unwrap_or_default()
    }

    /// Compact `k=v` rendering for tables.
    pub fn compact(&self) -> String {
        self.0
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) => format!("{k}={s}"),
                other => format!("{k}={other}"),
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Parses `key=value` from `--set`. The value is read as JSON when it parses (numbers,
/// `[1,2]`, `"text"`), as a list of numbers when comma-separated (`t=50,100`), else as a string.
pub fn parse_assignment(s: &str) -> Result<(String, Value), Error> {
    let (key, raw) = s
        .split_once('=')
        .ok_or_else(|| Error::MalformedSet(s.to_string()))?;
    let key = key.trim();
    let raw = raw.trim();
    if key.is_empty()
        || raw.is_empty()
        || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    {
        return Err(Error::MalformedSet(s.to_string()));
    }
    if let Ok(v) = serde_json::from_str::<Value>(raw) {
        return Ok((key.to_string(), v));
    }
    if raw.contains(',') {
        let items: Result<Vec<Value>, _> = raw
            .split(',')
            .map(|x| serde_json::from_str::<Value>(x.trim()))
            .collect();
        if let Ok(items) = items {
            if items.iter().all(Value::is_number) {
                return Ok((key.to_string(), Value::Array(items)));
            }
        }
    }
    Ok((key.to_string(), Value::String(raw.to_string())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn assignments() {
        assert_eq!(parse_assignment("n=0").unwrap(), ("n".into(), json!(0)));
        assert_eq!(
            parse_assignment("eta=0.5").unwrap(),
            ("eta".into(), json!(0.5))
        );
        assert_eq!(
            parse_assignment("t=50,100").unwrap(),
            ("t".into(), json!([50, 100]))
        );
        assert_eq!(
            parse_assignment("instance=pool").unwrap(),
            ("instance".into(), json!("pool"))
        );
        assert!(parse_assignment("n").is_err());
        assert!(parse_assignment("=3").is_err());
        assert!(parse_assignment("n=").is_err());
    }

    #[test]
    fn getters_name_the_parameter() {
        let p = params! { "n" => -1, "eta" => "x", "t" => [1, 2] };
        assert_eq!(p.u64("n").unwrap_err().name, "n");
        assert_eq!(p.f64("eta").unwrap_err().name, "eta");
        assert_eq!(p.u64("missing").unwrap_err().name, "missing");
        assert_eq!(p.u64_list("t").unwrap(), vec![1, 2]);
    }
}
