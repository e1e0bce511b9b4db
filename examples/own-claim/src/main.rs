//! dpclaims' claim commands (`list`, `check`, `report`, `merge`, shards) over this crate's claim.
fn main() -> std::process::ExitCode {
    dpclaims::cli::main(&[&own_claim::NoisyGdRdp])
}
