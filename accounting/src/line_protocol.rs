//! Asking an outside command one question per line: the transport that `audit --command` and
//! `conformance --command` share.
//!
//! The command runs under `sh -c`, in a process group of its own, and gets every remaining
//! question on its stdin, one per line; it answers with lines on its stdout (blank lines are
//! ignored). Which line answers which question is the caller's `tag` ([`exchange`]): an answer
//! carrying the question's id goes to that question whatever its place, a line that is not an
//! answer is counted and skipped ([`Notes`]), and answers without an id are taken in order
//! while no answer so far has had one (the old protocol, and `audit --command`'s rows, which
//! have no ids: [`ask_lines`]).
//!
//! A question not answered within the per-question timeout (counted from the last answer) is a
//! hang, and a command that exits before answering has crashed on it: either way that question
//! gets an error, the whole process group is killed (a Python interpreter started by the shell
//! goes with it; `killpg`, no `kill` binary needed), and the command is started again on the
//! questions still unanswered after it. After [`MAX_RESTARTS`] restarts the remaining
//! questions are not asked.
//!
//! Questions go one at a time: the next is written once this one is answered. Two pipes keep
//! no order between them, so this is what lets the command's stderr be read beside its stdout
//! exactly: the bytes written while it answered a question (at most the last [`STDERR_TAIL`]
//! of them) come with that answer ([`Answer::stderr`]), and a traceback is shown with the
//! error it explains. (Stderr is drained whenever stdout is readable, before stdout is read:
//! what a command wrote there before its answer is in its pipe by then. What it writes after
//! its answer goes with the next question's.) One question at a time also tells which
//! question a wrong answer was for: an answer carrying an id the command was not asked (or none,
//! after answers with ids) is an error for the question it was asked, at once, not a wait for
//! the timeout (a line written after an answer, before the next question is read, is taken
//! for that next question's answer). A command that keeps silent after a question for the
//! patience ([`LOCKSTEP_PATIENCE`], at most a quarter of the per-question timeout) is taken for
//! one that reads ahead or buffers its output: it gets every remaining question at once (noted:
//! [`Notes::at_once`]), and from then on its stderr goes with the answer read after it (a fast
//! command's next traceback may then come with this answer).
//!
//! While a command runs, SIGINT (Ctrl-C) kills its process group and exits with code 130
//! (the process group of the command is not the terminal's, so Ctrl-C does not reach it by
//! itself); the previous disposition is restored once no command runs. A process that ignores
//! SIGINT (started in the background by a shell) keeps ignoring it.

use std::io::{Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStderr, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

/// How many times a command that hung or crashed is started again.
pub const MAX_RESTARTS: usize = 20;

/// How long a command may keep silent after a question before it is taken for one that reads
/// ahead (and gets every remaining question): at most this, and a quarter of the per-question
/// timeout.
pub const LOCKSTEP_PATIENCE: Duration = Duration::from_secs(5);

/// How much of the command's stderr is kept per answer: the last this many bytes.
pub const STDERR_TAIL: usize = 4096;

/// How many protocol notes are kept in words ([`Notes::lines`]); all are counted.
pub const MAX_NOTES: usize = 20;

/// One answer line per question, or why there is none, with the lines read in order (no ids:
/// the protocol of `audit --command`). The command's stderr goes to ours when `show_stderr`
/// (an audited accountant's traceback is worth seeing), else nowhere.
pub fn ask_lines(
    command: &str,
    questions: &[String],
    timeout: Duration,
    show_stderr: bool,
) -> Vec<Result<String, String>> {
    let ids: Vec<u64> = (0..questions.len() as u64).collect();
    exchange(command, &ids, questions, timeout, show_stderr, |_| {
        Tag::Answer(None)
    })
    .answers
    .into_iter()
    .map(|a| a.line)
    .collect()
}

/// What a line of the command's stdout is, as the caller reads it.
#[derive(Debug, Clone, PartialEq)]
pub enum Tag {
    /// An answer: to the question with this id, or, without an id, to the next question in
    /// order (accepted only while no answer so far has had an id).
    Answer(Option<u64>),
    /// Not an answer (a warning printed to stdout, a line of another protocol): why.
    Stray(String),
}

/// One question's answer line (or why there is none) and the command's stderr while it
/// answered it (the last [`STDERR_TAIL`] bytes; empty if it wrote nothing).
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    /// The answer line, or why there is none (a hang, a crash, not asked).
    pub line: Result<String, String>,
    /// What the command wrote to stderr since the previous answer.
    pub stderr: String,
}

/// The lines that were not taken as answers, counted, and the first [`MAX_NOTES`] in words.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Notes {
    /// Lines that are not answers (skipped).
    pub stray: usize,
    /// Answers with an id that was not awaited: a question already answered, an id without an
    /// answer after answers with ids, or one never asked (skipped).
    pub misdirected: usize,
    /// Answers without an id, taken in order (the old protocol).
    pub in_order: usize,
    /// Whether the command kept silent after a question for the patience (it reads ahead,
    /// buffers its output, or was slow) and so got the remaining questions at once: its stderr
    /// may then come with a neighbouring answer.
    pub at_once: bool,
    /// The first [`MAX_NOTES`] notes, in words.
    pub lines: Vec<String>,
}

impl Notes {
    fn note(&mut self, text: String) {
        if self.lines.len() < MAX_NOTES {
            self.lines.push(text);
        }
    }

    /// Adds another exchange's notes (one conformance run asks in several rounds).
    pub fn extend(&mut self, other: Notes) {
        self.stray += other.stray;
        self.misdirected += other.misdirected;
        self.in_order += other.in_order;
        self.at_once |= other.at_once;
        for l in other.lines {
            self.note(l);
        }
    }

    /// Whether any line was skipped or taken without an id, or the questions went at once.
    pub fn is_empty(&self) -> bool {
        self.stray == 0 && self.misdirected == 0 && self.in_order == 0 && !self.at_once
    }
}

/// The answers, one per question, and the notes of an [`exchange`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Exchange {
    /// One per question, in the order of the questions.
    pub answers: Vec<Answer>,
    /// What was skipped, and how many answers had no id.
    pub notes: Notes,
}

/// A line, cut for a note.
fn quote(line: &str) -> String {
    const MAX: usize = 160;
    if line.len() <= MAX {
        return format!("{line:?}");
    }
    let mut end = MAX;
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    format!("{:?}...", &line[..end])
}

/// Asks `sh -c command` the questions (one line each; `ids[i]` is the id of `questions[i]`,
/// the one its answer must carry) and sorts the lines of its stdout with `tag` (module
/// documentation): every question gets an answer line or why it has none, in the order of
/// the questions.
pub fn exchange(
    command: &str,
    ids: &[u64],
    questions: &[String],
    timeout: Duration,
    show_stderr: bool,
    tag: impl Fn(&str) -> Tag,
) -> Exchange {
    assert_eq!(ids.len(), questions.len(), "one id per question");
    let n = questions.len();
    let index: std::collections::HashMap<u64, usize> =
        ids.iter().enumerate().map(|(i, &id)| (id, i)).collect();
    let mut answers: Vec<Option<Answer>> = vec![None; n];
    let mut notes = Notes::default();
    // Whether an answer with an id was taken: from then on answers without one are skipped.
    let mut ids_seen = false;
    let mut restarts = 0;
    // Whether a run of the command kept silent until it had every question (it reads ahead):
    // the runs after it in this exchange get every question at once.
    let mut reads_ahead = false;
    let patience = timeout.mul_f64(0.25).min(LOCKSTEP_PATIENCE);
    loop {
        let pending: Vec<usize> = (0..n).filter(|&i| answers[i].is_none()).collect();
        if pending.is_empty() {
            break;
        }
        if restarts > MAX_RESTARTS {
            let why = format!("not asked: the command hung or crashed {restarts} times");
            for i in pending {
                answers[i] = Some(Answer {
                    line: Err(why.clone()),
                    stderr: String::new(),
                });
            }
            break;
        }
        let mut run = match Run::start(command, show_stderr) {
            Ok(r) => r,
            Err(e) => {
                let why = format!("cannot run `{command}`: {e}");
                for i in pending {
                    answers[i] = Some(Answer {
                        line: Err(why.clone()),
                        stderr: String::new(),
                    });
                }
                break;
            }
        };
        // Questions one at a time (the next once this one is answered) while `lockstep`;
        // all that are left at once (and stdin closed) otherwise.
        let mut sent = 0;
        let ask = |run: &mut Run, upto: usize, sent: &mut usize| {
            let upto = upto.min(pending.len());
            if upto > *sent {
                let input: String = pending[*sent..upto]
                    .iter()
                    .map(|&i| questions[i].clone() + "\n")
                    .collect();
                run.send(input);
                *sent = upto;
            }
            if *sent == pending.len() {
                run.close();
            }
        };
        let mut lockstep = !reads_ahead;
        ask(
            &mut run,
            if lockstep { 1 } else { pending.len() },
            &mut sent,
        );
        let mut asked_at = Instant::now();
        // Stderr read with lines that were not answers goes with the next answer.
        let mut carried = String::new();
        let mut skipped = 0;
        let mut last = Instant::now();
        let mut failed = false;
        let in_run = |i: usize, answers: &[Option<Answer>], sent: usize| {
            answers[i].is_none() && pending[..sent].binary_search(&i).is_ok()
        };
        while let Some(&waiting) = pending.iter().find(|&&i| answers[i].is_none()) {
            let left = timeout.saturating_sub(last.elapsed());
            // A command that keeps silent for `patience` after a question may be reading ahead
            // (waiting for more input, or holding its answers in a buffer): it gets every
            // question that is left.
            let patient = lockstep;
            let wait = if patient {
                left.min(patience.saturating_sub(asked_at.elapsed()))
            } else {
                left
            };
            let (line, stderr) = match run.rx.recv_timeout(wait) {
                Ok(Msg::Line(line, stderr)) => (line, stderr),
                Err(mpsc::RecvTimeoutError::Timeout) if patient && wait < left => {
                    lockstep = false;
                    reads_ahead = true;
                    if !notes.at_once {
                        notes.at_once = true;
                        notes.note(format!(
                            "no answer to the question with id {} within {patience:?}: the command got every remaining question at once (it reads ahead or buffers its stdout, or was slow on that question; its stderr may then come with a neighbouring answer)", ids[waiting]
                        ));
                    }
                    ask(&mut run, pending.len(), &mut sent);
                    asked_at = Instant::now();
                    continue;
                }
                Ok(Msg::Eof(stderr)) => {
                    let why = if skipped > 0 {
                        format!(
                            "the command exited without an answer with id {} ({skipped} line(s) of its output skipped: see the protocol notes)",
                            ids[waiting]
                        )
                    } else {
                        "the command exited before answering".into()
                    };
                    answers[waiting] = Some(Answer {
                        line: Err(why),
                        stderr: tail(carried + &stderr),
                    });
                    failed = true;
                    break;
                }
                Err(_) => {
                    let stderr = run.tail.lock().expect("no panic holds it").take();
                    answers[waiting] = Some(Answer {
                        line: Err(format!("no answer within {timeout:?}")),
                        stderr: tail(carried + &stderr),
                    });
                    failed = true;
                    break;
                }
            };
            // In lockstep one question is outstanding (`waiting`): an answer for an id it was
            // not asked, or without an id after answers with ids, answers that one, wrongly.
            let mut wrong = None;
            let target = match tag(&line) {
                Tag::Stray(why) => {
                    notes.stray += 1;
                    notes.note(format!(
                        "skipped a line that is not an answer ({why}) while waiting for id {}: {}",
                        ids[waiting],
                        quote(&line)
                    ));
                    None
                }
                Tag::Answer(None) if ids_seen => {
                    notes.misdirected += 1;
                    notes.note(format!(
                        "skipped an answer without an id after answers with ids: {}",
                        quote(&line)
                    ));
                    if lockstep {
                        wrong = Some("an answer without an id (after answers with ids)".into());
                    }
                    None
                }
                Tag::Answer(None) => {
                    notes.in_order += 1;
                    Some(waiting)
                }
                Tag::Answer(Some(id)) => match index.get(&id) {
                    Some(&i) if in_run(i, &answers, sent) => {
                        ids_seen = true;
                        Some(i)
                    }
                    Some(&i) if answers[i].is_some() => {
                        notes.misdirected += 1;
                        notes.note(format!(
                            "skipped an answer for id {id}, not awaited (answered or given up before): {}",
                            quote(&line)
                        ));
                        None
                    }
                    _ => {
                        notes.misdirected += 1;
                        notes.note(format!(
                            "ignored an answer for id {id}, which was not asked: {}",
                            quote(&line)
                        ));
                        if lockstep {
                            wrong = Some(format!("an answer for id {id}"));
                        }
                        None
                    }
                },
            };
            let taken = match (target, wrong) {
                (Some(i), _) => Some((i, Ok(line))),
                (None, Some(what)) => Some((
                    waiting,
                    Err(format!(
                        "the command answered the question with id {} with {what}, not its id (see the protocol notes)",
                        ids[waiting]
                    )),
                )),
                (None, None) => None,
            };
            match taken {
                Some((i, line)) => {
                    answers[i] = Some(Answer {
                        line,
                        stderr: tail(std::mem::take(&mut carried) + &stderr),
                    });
                    last = Instant::now();
                    if lockstep && pending[..sent].iter().all(|&j| answers[j].is_some()) {
                        ask(&mut run, sent + 1, &mut sent);
                        asked_at = Instant::now();
                    }
                }
                None => {
                    carried += &stderr;
                    skipped += 1;
                }
            }
        }
        run.end(Duration::ZERO);
        if failed {
            restarts += 1;
        }
    }
    Exchange {
        answers: answers
            .into_iter()
            .map(|a| {
                a.unwrap_or_else(|| Answer {
                    line: Err("no answer".into()),
                    stderr: String::new(),
                })
            })
            .collect(),
        notes,
    }
}

/// The last [`STDERR_TAIL`] bytes of `s` (cut at a character), marked when cut.
fn tail(s: String) -> String {
    if s.len() <= STDERR_TAIL {
        return s;
    }
    let mut start = s.len() - STDERR_TAIL;
    while !s.is_char_boundary(start) {
        start += 1;
    }
    format!("[... {start} bytes before]\n{}", &s[start..])
}

/// Runs `sh -c command` with nothing on its stdin and returns its stdout once it exits, or why
/// not (it failed to start, exited with an error, or ran past `timeout`: then its group is
/// killed). Its stderr is discarded. Used for `CMD --supports`.
pub fn run_once(command: &str, timeout: Duration) -> Result<String, String> {
    let mut run = Run::start(command, false).map_err(|e| format!("cannot run `{command}`: {e}"))?;
    run.close();
    let mut out = String::new();
    let started = Instant::now();
    let result = loop {
        match run
            .rx
            .recv_timeout(timeout.saturating_sub(started.elapsed()))
        {
            Ok(Msg::Line(line, _)) => {
                out += &line;
                out.push('\n');
            }
            Ok(Msg::Eof(_)) => break Ok(()),
            Err(_) => break Err(format!("no answer within {timeout:?}")),
        }
    };
    // Stdout closed: the command is exiting; its status tells an error from an answer.
    let status = run.end(Duration::from_millis(500));
    result?;
    match status {
        Some(s) if !s.success() => Err(format!("it exited with {s}")),
        _ => Ok(out),
    }
}

/// What the reader thread sends: an answer line with the stderr read before it, or the end of
/// the command's stdout with the stderr read until then.
enum Msg {
    Line(String, String),
    Eof(String),
}

/// The bytes of stderr not yet given out, the last [`STDERR_TAIL`] of them.
#[derive(Default)]
struct Tail {
    bytes: Vec<u8>,
    dropped: usize,
}

impl Tail {
    fn push(&mut self, b: &[u8]) {
        self.bytes.extend_from_slice(b);
        if self.bytes.len() > 2 * STDERR_TAIL {
            let cut = self.bytes.len() - STDERR_TAIL;
            self.dropped += cut;
            self.bytes.drain(..cut);
        }
    }

    fn take(&mut self) -> String {
        let text = String::from_utf8_lossy(&self.bytes).into_owned();
        let out = if self.dropped > 0 {
            format!("[... {} bytes before]\n{text}", self.dropped)
        } else {
            text
        };
        self.bytes.clear();
        self.dropped = 0;
        out
    }
}

/// One running command: its child (a process group of its own, registered for Ctrl-C), the
/// channel of its lines, and the stderr not yet given out.
struct Run {
    child: Child,
    stdin: Option<mpsc::Sender<String>>,
    rx: mpsc::Receiver<Msg>,
    tail: Arc<Mutex<Tail>>,
    stop: Arc<AtomicBool>,
    _registered: interrupt::Registered,
}

impl Run {
    fn start(command: &str, show_stderr: bool) -> std::io::Result<Run> {
        let spawning = interrupt::Spawning::begin();
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()?;
        let registered = spawning.registered(child.id());
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");
        let tail = Arc::new(Mutex::new(Tail::default()));
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, rx) = mpsc::channel();
        {
            let (tail, stop) = (tail.clone(), stop.clone());
            std::thread::spawn(move || read(stdout, stderr, &tail, show_stderr, &tx, &stop));
        }
        // Written from a thread, so that a command that does not read cannot block us; the
        // pipe closes when the sender is dropped.
        let (to_stdin, lines) = mpsc::channel::<String>();
        std::thread::spawn(move || {
            let mut stdin = stdin;
            for line in lines {
                if stdin.write_all(line.as_bytes()).is_err() {
                    return;
                }
            }
        });
        Ok(Run {
            stdin: Some(to_stdin),
            child,
            rx,
            tail,
            stop,
            _registered: registered,
        })
    }

    /// Writes `input` to the command's stdin (without waiting for the command to read it).
    fn send(&self, input: String) {
        if let Some(stdin) = &self.stdin {
            let _ = stdin.send(input);
        }
    }

    /// Closes the command's stdin once what was sent is written: the command reads its end.
    fn close(&mut self) {
        self.stdin = None;
    }

    /// Kills the child's whole process group (its pid is the group's id), reaps the child,
    /// and returns its exit status if it exited by itself within `grace`. The child is reaped
    /// only after its group is killed: until then its pid, hence the group's id, cannot be
    /// another's.
    fn end(mut self, grace: Duration) -> Option<std::process::ExitStatus> {
        let pid = self.child.id();
        let started = Instant::now();
        let exited = loop {
            if exited_unreaped(pid) {
                break true;
            }
            if started.elapsed() >= grace {
                break false;
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        interrupt::kill_group(pid);
        let status = self.child.wait().ok();
        self.stop.store(true, Ordering::SeqCst);
        status.filter(|_| exited)
    }
}

/// Whether the child `pid` has exited, without reaping it (`waitid` with `WNOWAIT`).
fn exited_unreaped(pid: u32) -> bool {
    // SAFETY: waitid on our own child with a zeroed siginfo it fills; WNOHANG: no blocking.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        libc::waitid(
            libc::P_PID,
            pid as libc::id_t,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        ) == 0
            && info.si_pid() != 0
    }
}

/// The reader thread: stdout lines (with the stderr read before each) until stdout ends.
fn read(
    mut out: ChildStdout,
    mut err: ChildStderr,
    tail: &Mutex<Tail>,
    echo: bool,
    tx: &mpsc::Sender<Msg>,
    stop: &AtomicBool,
) {
    let (out_fd, err_fd) = (out.as_raw_fd(), err.as_raw_fd());
    let mut err_open = true;
    let mut partial: Vec<u8> = Vec::new();
    let mut buf = vec![0u8; 8192];
    let take = || tail.lock().expect("no panic holds it").take();
    // Reads what stderr has now (waiting at most `wait_ms` for the first bytes).
    let mut drain_stderr = |err_open: &mut bool, wait_ms: i32| {
        let mut wait = wait_ms;
        while *err_open && readable(err_fd, wait) {
            wait = 0;
            match err.read(&mut buf) {
                Ok(0) => *err_open = false,
                Ok(k) => {
                    tail.lock().expect("no panic holds it").push(&buf[..k]);
                    if echo {
                        let _ = std::io::stderr().write_all(&buf[..k]);
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => *err_open = false,
            }
        }
    };
    let mut chunk = vec![0u8; 8192];
    while !stop.load(Ordering::SeqCst) {
        let mut fds = [
            libc::pollfd {
                fd: out_fd,
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: if err_open { err_fd } else { -1 },
                events: libc::POLLIN,
                revents: 0,
            },
        ];
        // SAFETY: `fds` is a valid array of two pollfd for the duration of the call.
        let ready = unsafe { libc::poll(fds.as_mut_ptr(), 2, 100) };
        if ready <= 0 {
            continue; // timeout, or EINTR
        }
        // Stderr first: what the command wrote there before its answer goes with the answer
        // (written before stdout, it is in its pipe once stdout is readable).
        if fds[1].revents != 0 || fds[0].revents != 0 {
            drain_stderr(&mut err_open, 0);
        }
        if fds[0].revents == 0 {
            continue;
        }
        match out.read(&mut chunk) {
            Ok(0) | Err(_) => {
                // Stdout ended: the command exited (or closed it). What it had left on
                // stderr (a traceback) comes within a moment, unless a survivor holds it open.
                let deadline = Instant::now() + Duration::from_millis(300);
                while err_open && Instant::now() < deadline {
                    drain_stderr(&mut err_open, 50);
                }
                let rest = String::from_utf8_lossy(&partial).into_owned();
                if !rest.trim().is_empty() {
                    let line = rest.trim_end_matches('\r').to_string();
                    if tx.send(Msg::Line(line, take())).is_err() {
                        return;
                    }
                }
                let _ = tx.send(Msg::Eof(take()));
                return;
            }
            Ok(k) => {
                partial.extend_from_slice(&chunk[..k]);
                while let Some(pos) = partial.iter().position(|&b| b == b'\n') {
                    let raw: Vec<u8> = partial.drain(..=pos).collect();
                    let line = String::from_utf8_lossy(&raw[..pos]);
                    let line = line.trim_end_matches('\r');
                    if line.trim().is_empty() {
                        continue;
                    }
                    if tx.send(Msg::Line(line.to_string(), take())).is_err() {
                        return;
                    }
                }
            }
        }
    }
}

/// Whether `fd` has something to read (or is closed) within `wait_ms` milliseconds.
fn readable(fd: i32, wait_ms: i32) -> bool {
    let mut p = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one valid pollfd for the duration of the call.
    unsafe { libc::poll(&mut p, 1, wait_ms) > 0 && p.revents != 0 }
}

/// Ctrl-C while commands run: kill their process groups, exit 130 (module documentation).
mod interrupt {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};

    /// Process groups of the running commands (0: a free slot).
    static GROUPS: [AtomicI32; 32] = [const { AtomicI32::new(0) }; 32];
    /// Commands being spawned (not yet registered): an interrupt waits for them.
    static SPAWNING: AtomicUsize = AtomicUsize::new(0);
    /// An interrupt came while a command was being spawned.
    static PENDING: AtomicBool = AtomicBool::new(false);
    /// How many commands run, and the disposition of SIGINT before the first.
    static INSTALLED: Mutex<(usize, Option<libc::sigaction>)> = Mutex::new((0, None));

    /// Kills every registered group; exits 130 unless a command is being spawned (then the
    /// spawner does it once its command is registered). Async-signal-safe: atomics,
    /// `killpg`, `_exit`.
    extern "C" fn on_interrupt(_: libc::c_int) {
        kill_all();
        if SPAWNING.load(Ordering::SeqCst) > 0 {
            PENDING.store(true, Ordering::SeqCst);
            return;
        }
        // SAFETY: `_exit` is async-signal-safe and ends the process at once.
        unsafe { libc::_exit(130) }
    }

    fn kill_all() {
        for g in &GROUPS {
            let pgid = g.load(Ordering::SeqCst);
            if pgid > 0 {
                // SAFETY: killpg on a group id we created; errors (already gone) are ignored.
                unsafe {
                    libc::killpg(pgid, libc::SIGKILL);
                }
            }
        }
    }

    /// Kills the process group `pgid` (a child started with `process_group(0)`).
    pub fn kill_group(pgid: u32) {
        // SAFETY: killpg on a group id we created; errors (already gone) are ignored.
        unsafe {
            libc::killpg(pgid as libc::pid_t, libc::SIGKILL);
        }
    }

    /// While alive: a command is being spawned. The handler is installed first, so that an
    /// interrupt during the spawn is handled once the command is registered.
    pub struct Spawning {
        registered: bool,
    }

    impl Spawning {
        pub fn begin() -> Spawning {
            install();
            SPAWNING.fetch_add(1, Ordering::SeqCst);
            Spawning { registered: false }
        }

        /// Registers the group of the command just spawned (its pid). With more than 32
        /// commands at once the extra ones are not registered.
        pub fn registered(mut self, pgid: u32) -> Registered {
            let slot = GROUPS.iter().position(|g| {
                g.compare_exchange(0, pgid as i32, Ordering::SeqCst, Ordering::SeqCst)
                    .is_ok()
            });
            self.registered = true;
            Registered { slot }
        }
    }

    impl Drop for Spawning {
        fn drop(&mut self) {
            if !self.registered {
                uninstall(); // the spawn failed
            }
            if SPAWNING.fetch_sub(1, Ordering::SeqCst) == 1 && PENDING.load(Ordering::SeqCst) {
                kill_all();
                // SAFETY: ends the process, as the handler would have.
                unsafe { libc::_exit(130) }
            }
        }
    }

    /// A registered process group: unregistered (and the handler restored after the last)
    /// when dropped.
    pub struct Registered {
        slot: Option<usize>,
    }

    impl Drop for Registered {
        fn drop(&mut self) {
            if let Some(s) = self.slot {
                GROUPS[s].store(0, Ordering::SeqCst);
            }
            uninstall();
        }
    }

    fn install() {
        let mut state = INSTALLED.lock().unwrap_or_else(|p| p.into_inner());
        state.0 += 1;
        if state.0 > 1 {
            return;
        }
        // SAFETY: plain sigaction calls with zeroed, then filled, structs; the handler only
        // does async-signal-safe work.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(libc::SIGINT, std::ptr::null(), &mut old) != 0 {
                return;
            }
            if old.sa_sigaction == libc::SIG_IGN {
                return; // ignored (a background job): leave it so
            }
            let mut new: libc::sigaction = std::mem::zeroed();
            new.sa_sigaction = on_interrupt as extern "C" fn(libc::c_int) as libc::sighandler_t;
            new.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut new.sa_mask);
            if libc::sigaction(libc::SIGINT, &new, std::ptr::null_mut()) == 0 {
                state.1 = Some(old);
            }
        }
    }

    fn uninstall() {
        let mut state = INSTALLED.lock().unwrap_or_else(|p| p.into_inner());
        state.0 = state.0.saturating_sub(1);
        if state.0 > 0 {
            return;
        }
        if let Some(old) = state.1.take() {
            // SAFETY: restores the disposition saved by `install`.
            unsafe {
                libc::sigaction(libc::SIGINT, &old, std::ptr::null_mut());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn questions(n: usize) -> Vec<String> {
        (0..n).map(|i| i.to_string()).collect()
    }

    /// Processes whose command line carries `marker` (Linux's /proc).
    fn running(marker: &str) -> Vec<String> {
        std::fs::read_dir("/proc")
            .unwrap()
            .filter_map(|e| std::fs::read(e.ok()?.path().join("cmdline")).ok())
            .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
            .filter(|c| c.contains(marker))
            .collect()
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
        std::thread::sleep(Duration::from_millis(200));
        let left = running(&marker);
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

    /// Lines "id:answer"; "say ..." lines are not answers; "-:x" has no id.
    fn tag(line: &str) -> Tag {
        match line.split_once(':') {
            Some(("-", _)) => Tag::Answer(None),
            Some((id, _)) => id
                .parse()
                .map(|id| Tag::Answer(Some(id)))
                .unwrap_or_else(|_| Tag::Stray("not id:answer".into())),
            None => Tag::Stray("no colon".into()),
        }
    }

    /// A stray line is skipped, not taken for the next question's answer; answers go by id,
    /// whatever their order; one for an id not asked is ignored; each is noted.
    #[test]
    fn answers_go_by_id_and_stray_lines_are_skipped() {
        let ids = [10, 11, 12, 13];
        let qs = questions(4);
        // Reads the four questions, then answers: a warning, 11 before 10, an unknown id, a
        // duplicate, and 12, 13.
        let cmd = "cat >/dev/null; echo 'warning: something'; echo 11:b; echo 10:a; \
                   echo 99:z; echo 10:again; echo 12:c; echo 13:d";
        let x = exchange(cmd, &ids, &qs, Duration::from_secs(2), false, tag);
        let got: Vec<_> = x.answers.iter().map(|a| a.line.clone()).collect();
        assert_eq!(
            got,
            ["10:a", "11:b", "12:c", "13:d"].map(|s| Ok(s.to_string()))
        );
        assert_eq!(
            (x.notes.stray, x.notes.misdirected),
            (1, 2),
            "{:?}",
            x.notes
        );
        let text = x.notes.lines.join("\n");
        assert!(
            x.notes.at_once && text.contains("every remaining question at once"),
            "{text}"
        );
        assert!(text.contains("warning: something"), "{text}");
        assert!(text.contains("id 99, which was not asked"), "{text}");
        assert!(text.contains("id 10, not awaited"), "{text}");
    }

    /// Answers without ids are taken in order while no answer has had an id; after one has,
    /// they are skipped, and the question left without an answer costs itself only.
    #[test]
    fn answers_without_ids_are_taken_in_order_until_one_has_an_id() {
        let qs = questions(3);
        let x = exchange(
            "cat >/dev/null; echo -:a; echo -:b; echo -:c",
            &[0, 1, 2],
            &qs,
            Duration::from_secs(2),
            false,
            tag,
        );
        assert!(x.answers.iter().all(|a| a.line.is_ok()), "{x:?}");
        assert_eq!(x.notes.in_order, 3);
        let x = exchange(
            "cat >/dev/null; echo 0:a; echo -:b; echo 2:c",
            &[0, 1, 2],
            &qs,
            Duration::from_secs(2),
            false,
            tag,
        );
        assert_eq!(x.answers[0].line.as_deref(), Ok("0:a"));
        let why = x.answers[1].line.as_ref().unwrap_err();
        assert!(why.contains("without an answer with id 1"), "{why}");
        assert_eq!(x.answers[2].line.as_deref(), Ok("2:c"));
        assert_eq!(x.notes.misdirected, 1);
    }

    /// What the command writes to stderr while answering a question comes with that answer;
    /// a crash's last words come with the question it crashed on.
    #[test]
    fn stderr_goes_with_the_answer_it_was_written_for() {
        let cmd = "while read x; do \
                   if [ \"$x\" = 2 ]; then echo 'Traceback: boom' >&2; exit 1; fi; \
                   echo \"note $x\" >&2; echo \"-:$x\"; done";
        let x = exchange(
            cmd,
            &[0, 1, 2, 3],
            &questions(4),
            Duration::from_secs(5),
            false,
            tag,
        );
        assert_eq!(x.answers[0].stderr, "note 0\n");
        assert_eq!(x.answers[1].stderr, "note 1\n");
        assert!(x.answers[2].line.is_err());
        assert_eq!(x.answers[2].stderr, "Traceback: boom\n");
        assert_eq!(x.answers[3].stderr, "note 3\n");
        // Bounded: the last STDERR_TAIL bytes.
        let cmd = "read x; head -c 100000 /dev/zero | tr '\\0' x >&2; echo end >&2; echo -:a";
        let x = exchange(cmd, &[0], &questions(1), Duration::from_secs(5), false, tag);
        let s = &x.answers[0].stderr;
        assert!(
            s.len() < STDERR_TAIL + 64 && s.ends_with("xxend\n"),
            "{}",
            s.len()
        );
        assert!(s.starts_with("[... "), "{}", &s[..40]);
    }

    /// A command that answers at once, its stderr line just before each answer, gets each
    /// stderr line with its own answer: questions go one at a time (two pipes keep no order,
    /// so with every question asked at once a fast command's next traceback could be read
    /// before this answer). (Commands that read all their input before answering are the
    /// tests above that start with `cat >/dev/null`.)
    #[test]
    fn stderr_of_a_fast_command_goes_with_its_own_answer() {
        let n = 300;
        let cmd = "while read x; do echo \"tb $x\" >&2; echo \"$x:a\"; done";
        let ids: Vec<u64> = (0..n as u64).collect();
        let x = exchange(cmd, &ids, &questions(n), Duration::from_secs(5), false, tag);
        for (i, a) in x.answers.iter().enumerate() {
            assert_eq!(a.line.as_deref(), Ok(format!("{i}:a").as_str()));
            assert_eq!(a.stderr, format!("tb {i}\n"), "answer {i}");
        }
        assert!(x.notes.is_empty(), "{:?}", x.notes);
    }

    /// With one question asked at a time, an answer with an id it was not asked answers it
    /// wrongly: an error for that question at once (not a wait for the timeout), and the next
    /// question goes on.
    #[test]
    fn a_wrong_id_answers_the_question_asked_wrongly() {
        let cmd =
            "while read x; do if [ \"$x\" = 1 ]; then echo 99:z; else echo \"$x:a\"; fi; done";
        let t = Instant::now();
        let x = exchange(
            cmd,
            &[0, 1, 2],
            &questions(3),
            Duration::from_secs(20),
            false,
            tag,
        );
        assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
        assert_eq!(x.answers[0].line.as_deref(), Ok("0:a"));
        let why = x.answers[1].line.as_ref().unwrap_err();
        assert!(why.contains("id 1 with an answer for id 99"), "{why}");
        assert_eq!(x.answers[2].line.as_deref(), Ok("2:a"));
        assert_eq!(x.notes.misdirected, 1);
    }

    /// A command that answers its first question and then reads to the end of its input
    /// before answering the rest gets them all after one patience, not a timeout each.
    #[test]
    fn a_command_that_reads_ahead_after_one_answer_gets_every_question() {
        let cmd = "read x; echo \"$x:a\"; l=''; while read y; do l=\"$l $y\"; done; \
                   for y in $l; do echo \"$y:a\"; done";
        let t = Instant::now();
        let x = exchange(
            cmd,
            &[0, 1, 2, 3],
            &questions(4),
            Duration::from_secs(2),
            false,
            tag,
        );
        assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
        for (i, a) in x.answers.iter().enumerate() {
            assert_eq!(a.line.as_deref(), Ok(format!("{i}:a").as_str()));
        }
        assert!(x.notes.at_once, "{:?}", x.notes);
    }

    #[test]
    fn run_once_reads_stdout_or_says_why_not() {
        assert_eq!(
            run_once("echo '{\"a\": 1}'", Duration::from_secs(5)).as_deref(),
            Ok("{\"a\": 1}\n")
        );
        assert!(run_once("exit 2", Duration::from_secs(5)).is_err());
        let t = Instant::now();
        let e = run_once("sleep 30", Duration::from_millis(300)).unwrap_err();
        assert!(e.contains("no answer within") && t.elapsed() < Duration::from_secs(5));
    }
}
