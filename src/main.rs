//! The `dpclaims` command line ([`dpclaims::cli::app`]).

fn main() -> std::process::ExitCode {
    dpclaims::cli::app::main()
}
