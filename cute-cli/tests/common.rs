//! What every module of the CLI tests runs: the `cute` binary and its
//! output as text.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `cute` with arguments and no standard input.
pub fn cute(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cute")).args(args).stdin(Stdio::null()).output().expect("run cute")
}

/// Runs `cute` with arguments, feeding `input` on standard input.
pub fn cute_with_input(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cute"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn cute");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait for cute");
    writer.join().expect("writer thread");
    out
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("stderr is UTF-8")
}
