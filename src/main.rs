//! The `aigent` binary: parse, dispatch, render, exit. Everything else lives
//! in the library.

mod cli;

#[global_allocator]
static ALLOCATOR: cli::memory::Bounded = cli::memory::Bounded;

fn main() {
    std::process::exit(cli::main());
}
