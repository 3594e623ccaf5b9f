// SPDX-License-Identifier: GPL-2.0-or-later
// panic-spawn.rs: a Rust program, whose calls all go through the GOT
// (-fno-plt is rustc's default): it catches panics with catch_unwind
// (_Unwind_RaiseException), then runs itself as "leaf" with Command
// (posix_spawn), which calls getppid once.  "hello" only says hello;
// "overflow" overflows the main thread's stack, which Rust's own SIGSEGV
// handler (installed only if it finds SIG_DFL) reports before it aborts.
use std::env;
use std::panic;
use std::process::Command;

// Recurse until the stack overflows.
fn deep(n: u64) -> u64 {
    let frame = std::hint::black_box([n; 64]);
    if n == 0 {
        0
    } else {
        deep(n - 1) + frame[3]
    }
}

fn main() {
    let mode = env::args().nth(1).unwrap_or_default();
    if mode == "hello" {
        println!("hello");
        return;
    }
    if mode == "overflow" {
        println!("{}", deep(std::hint::black_box(u64::MAX)));
        return;
    }
    if mode == "leaf" {
        println!("leaf {}", std::os::unix::process::parent_id() > 0);
        return;
    }
    panic::set_hook(Box::new(|_| {})); // no message on stderr, for the trace
    let mut caught = 0;
    for i in 0..3 {
        if panic::catch_unwind(|| panic!("panic {}", i)).is_err() {
            caught += 1;
        }
    }
    println!("caught {}", caught);
    let out = Command::new(env::current_exe().unwrap())
        .arg("leaf")
        .output()
        .unwrap();
    print!("child: {}", String::from_utf8_lossy(&out.stdout));
    println!("child status {}", out.status.code().unwrap_or(-1));
}
