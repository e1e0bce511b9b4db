//! `dpclaims list`: every claim (id, paper, result, statement, mutants; `--json` with its
//! parameter space), or the detection thresholds.

use super::*;

/// The arguments of `dpclaims list` (the help text is on [`ClaimCommand::List`]).
#[derive(clap::Args)]
pub struct ListArgs {
    /// One JSON object per claim.
    #[arg(long)]
    pub json: bool,
    /// The detection thresholds instead (the committed docs/detection.json compiled into
    /// the binary, or --detection-file), sorted by threshold.
    #[arg(long)]
    pub detection: bool,
    /// Read the thresholds from this file (written by `dpclaims detection`).
    #[arg(long, value_name = "FILE", requires = "detection")]
    pub detection_file: Option<std::path::PathBuf>,
    /// The claims table and counts as Markdown (what `docs/claims.md` holds).
    #[arg(long, conflicts_with_all = ["json", "detection"])]
    pub markdown: bool,
}

/// Runs `dpclaims list` over `claims`, printing on `out`.
pub fn run(
    claims: &[&dyn Claim],
    args: ListArgs,
    out: &mut impl Write,
) -> Result<ExitCode, crate::Error> {
    let ListArgs {
        json,
        detection,
        detection_file,
        markdown,
    } = args;
    if markdown {
        // The built-in proof maps whose step claims are all among `claims`.
        let ids: Vec<&str> = claims.iter().map(|c| c.info().id).collect();
        let maps: Vec<_> = crate::proofs::maps()
            .into_iter()
            .filter(|m| {
                crate::proofs::claim_ids(&[m])
                    .iter()
                    .all(|id| ids.contains(id))
            })
            .collect();
        let _ = write!(out, "{}", crate::report::list_markdown(claims, &maps));
        return Ok(ExitCode::SUCCESS);
    }
    let all = claims;
    if detection {
        let file = match detection_file {
            Some(path) => Some(crate::detection::DetectionFile::parse(
                &std::fs::read_to_string(&path).map_err(|e| {
                    crate::Error::Input(format!("cannot read {}: {e}", path.display()))
                })?,
            )?),
            None => crate::detection::builtin(),
        };
        if json {
            for c in all {
                let row = file.as_ref().and_then(|f| f.get(c.info().id));
                let _ = writeln!(
                    out,
                    "{}",
                    serde_json::json!({"claim": c.info().id, "detection": row})
                );
            }
        } else {
            let _ = write!(out, "{}", crate::detection::table(all, file.as_ref()));
        }
        return Ok(ExitCode::SUCCESS);
    }
    if json {
        for c in all {
            // The claim's info, and the parameter space it declares for `search` (null
            // when none).
            let mut row = serde_json::to_value(c.info()).expect("claim info serializes");
            row["space"] = serde_json::to_value(c.space()).expect("spaces serialize");
            let _ = writeln!(out, "{row}");
        }
    } else {
        let _ = write!(out, "{}", crate::report::list_table(all));
    }
    Ok(ExitCode::SUCCESS)
}
