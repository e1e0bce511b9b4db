//! Asking an outside command one question per line: the transport that `audit --command` and
//! `conformance --command` share.
//!
//! The command runs under `sh -c`, in a process group of its own, and gets every remaining
//! question on its stdin, one per line; it must answer each with one line on its stdout, in
//! order (blank lines are ignored). A question not answered within the per-question timeout is
//! a hang, and a command that exits before answering has crashed on it: either way that
//! question gets an error, the whole process group is killed (a Python interpreter started by
//! the shell goes with it), and the command is started again on the questions after it. After
//! [`MAX_RESTARTS`] restarts the remaining questions are not asked.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// How many times a command that hung or crashed is started again.
pub const MAX_RESTARTS: usize = 20;

/// One answer line per question, or why there is none. The command's stderr goes to ours when
/// `show_stderr` (an audited accountant's traceback is worth seeing), else nowhere.
pub fn ask_lines(
    command: &str,
    questions: &[String],
    timeout: Duration,
    show_stderr: bool,
) -> Vec<Result<String, String>> {
    let mut answers: Vec<Result<String, String>> = Vec::with_capacity(questions.len());
    let mut restarts = 0;
    while answers.len() < questions.len() {
        let start = answers.len();
        let mut child = match spawn(command, show_stderr) {
            Ok(c) => c,
            Err(e) => {
                let why = format!("cannot run `{command}`: {e}");
                answers.extend((start..questions.len()).map(|_| Err(why.clone())));
                break;
            }
        };
        let input: String = questions[start..]
            .iter()
            .map(|q| q.clone() + "\n")
            .collect();
        let mut stdin = child.stdin.take().expect("piped stdin");
        // Written from a thread so that a command answering as it reads cannot deadlock us.
        std::thread::spawn(move || {
            let _ = stdin.write_all(input.as_bytes());
        });
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) if l.trim().is_empty() => continue,
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        let mut failed = false;
        while answers.len() < questions.len() {
            match rx.recv_timeout(timeout) {
                Ok(line) => answers.push(Ok(line)),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    answers.push(Err(format!("no answer within {timeout:?}")));
                    failed = true;
                    break;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    answers.push(Err("the command exited before answering".into()));
                    failed = true;
                    break;
                }
            }
        }
        kill_group(&mut child);
        if failed {
            restarts += 1;
            if restarts > MAX_RESTARTS && answers.len() < questions.len() {
                let why = format!("not asked: the command hung or crashed {restarts} times");
                answers.extend((answers.len()..questions.len()).map(|_| Err(why.clone())));
            }
        }
    }
    answers
}

fn spawn(command: &str, show_stderr: bool) -> std::io::Result<Child> {
    Command::new("sh")
        .arg("-c")
        .arg(command)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(if show_stderr {
            Stdio::inherit()
        } else {
            Stdio::null()
        })
        .process_group(0)
        .spawn()
}

/// Kills the child's whole process group (its pid is the group's id), then reaps the child.
fn kill_group(child: &mut Child) {
    let _ = Command::new("kill")
        .arg("-KILL")
        .arg("--")
        .arg(format!("-{}", child.id()))
        .stderr(Stdio::null())
        .status();
    let _ = child.kill();
    let _ = child.wait();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn questions(n: usize) -> Vec<String> {
        (0..n).map(|i| i.to_string()).collect()
    }

    /// A command that hangs on one question costs that question only, and its hung
    /// grandchild (a `sleep` under the shell) does not outlive the run.
    #[test]
    fn a_hang_costs_one_question_and_kills_the_group() {
        let marker = format!("dpclaims-lp-{}", std::process::id());
        // Answers each line with itself, except "1", on which it sleeps (in a child process).
        let cmd = format!(
            "while read x; do if [ \"$x\" = 1 ]; then sh -c 'sleep 30; : {marker}'; fi; echo \"$x\"; done"
        );
        let t = std::time::Instant::now();
        let a = ask_lines(&cmd, &questions(4), Duration::from_millis(500), false);
        assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
        assert_eq!(a[0].as_deref(), Ok("0"));
        assert!(
            a[1].as_ref().unwrap_err().contains("no answer within"),
            "{a:?}"
        );
        assert_eq!(a[2].as_deref(), Ok("2"));
        assert_eq!(a[3].as_deref(), Ok("3"));
        // No process left whose command line carries the marker (Linux's /proc).
        std::thread::sleep(Duration::from_millis(200));
        let left: Vec<String> = std::fs::read_dir("/proc")
            .unwrap()
            .filter_map(|e| std::fs::read(e.ok()?.path().join("cmdline")).ok())
            .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
            .filter(|c| c.contains(&marker))
            .collect();
        assert!(left.is_empty(), "left running: {left:?}");
    }

    #[test]
    fn a_crash_costs_one_question() {
        let cmd = "while read x; do if [ \"$x\" = 2 ]; then exit 3; fi; echo \"$x\"; done";
        let a = ask_lines(cmd, &questions(4), Duration::from_secs(5), false);
        assert_eq!(a[1].as_deref(), Ok("1"));
        assert!(a[2].as_ref().unwrap_err().contains("exited"), "{a:?}");
        assert_eq!(a[3].as_deref(), Ok("3"));
    }

    #[test]
    fn restarts_are_bounded() {
        let a = ask_lines("exit 1", &questions(40), Duration::from_secs(5), false);
        assert_eq!(a.len(), 40);
        assert!(a[39].as_ref().unwrap_err().contains("not asked"), "{a:?}");
    }
}
