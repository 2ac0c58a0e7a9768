//! The integration tests: one binary, one module per area, so the
//! dependencies (libgit2 among them) are linked once.

mod common;

#[cfg(unix)]
mod agent_errors;
mod agent_spec;
mod args_check;
#[cfg(unix)]
mod audit;
mod audit_export;
mod audit_signed;
mod catalog;
mod cli;
#[cfg(unix)]
mod confined_paths;
#[cfg(unix)]
mod cookbook;
mod ecosystem;
mod error_codes;
mod fuzz;
#[cfg(target_os = "linux")]
mod fuzz_mcp;
mod fuzz_plugin;
mod fuzz_rewrite;
mod generated;
mod hardening;
mod hook;
mod hook_corpus;
mod hook_doctor;
mod hook_install;
mod hook_learn;
#[cfg(unix)]
mod invoke;
#[cfg(unix)]
mod lint_program_options;
#[cfg(unix)]
mod lsp;
#[cfg(unix)]
mod mcp;
#[cfg(unix)]
mod mcp_drain;
#[cfg(unix)]
mod mcp_http;
#[cfg(unix)]
mod mcp_http_client;
#[cfg(unix)]
mod mcp_http_oauth;
#[cfg(target_os = "linux")]
mod mcp_memory;
#[cfg(unix)]
mod mcp_queue;
#[cfg(unix)]
mod mcp_revisions;
#[cfg(unix)]
mod mcp_shutdown;
#[cfg(unix)]
mod mcp_utilities;
#[cfg(unix)]
mod mcp_wire;
mod newcomer;
mod number_bounds;
mod plugin;
mod plugin_changed;
#[cfg(unix)]
mod policy;
mod profiles;
mod raw_shell_lint;
#[cfg(unix)]
mod real_clients;
#[cfg(unix)]
mod run;
#[cfg(target_os = "linux")]
mod sandbox;
mod sarif;
mod schema;
mod schema_changed;
mod schema_export;
mod schema_import;
#[cfg(unix)]
mod shell_fuzz;
mod skill_authoring;
mod skill_changed;
mod skill_contracts;
mod skill_fix;
mod skill_hints;
mod skill_new;
mod skill_properties;
mod skill_proptest;
mod skill_validate;
mod templates;
mod text_values;
mod tokens;
mod vcs_changed;
#[cfg(target_os = "linux")]
mod watch;
