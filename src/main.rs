//! The `aigent` binary: parse, dispatch, render, exit. Everything else lives
//! in the library.

mod cli;

fn main() {
    std::process::exit(cli::main());
}
