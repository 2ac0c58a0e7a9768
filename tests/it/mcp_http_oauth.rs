//! `aigent mcp serve --http` with `--oauth-authorization-server`: OAuth
//! protected-resource metadata (RFC 9728) served without a token, and
//! pointed at from every `401`; without the flag, neither.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::Stdio;
use std::time::Duration;

use serde_json::{Value, json};

use crate::common::Sandbox;
use crate::mcp_http::{Server, TOKEN, http_serve};

const RESOURCE: &str = "https://mcp.example.com/mcp";
const ISSUER: &str = "https://auth.example.com";
const METADATA: &str = "/.well-known/oauth-protected-resource";

/// The token and an empty registry, as `mcp_http`'s server expects them.
fn prepare(sandbox: &Sandbox) {
    sandbox.write("token", format!("{TOKEN}\n"));
    std::fs::create_dir_all(sandbox.join("commands")).unwrap();
}

fn serve(sandbox: &Sandbox, extra: &[&str]) -> std::process::Command {
    prepare(sandbox);
    http_serve(sandbox, extra)
}

fn start(sandbox: &Sandbox, extra: &[&str]) -> Server {
    prepare(sandbox);
    crate::mcp_http::start(sandbox, extra)
}

/// One request on its own connection: status, headers (lower-cased
/// names) and body.
fn request(
    address: SocketAddr,
    method: &str,
    path: &str,
    extra: &str,
) -> (u16, Vec<(String, String)>, String) {
    let mut stream = TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let body = if method == "POST" {
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}).to_string()
    } else {
        String::new()
    };
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\n{extra}Content-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut text = String::new();
    stream.read_to_string(&mut text).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let mut lines = head.lines();
    let status = lines
        .next()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(key, value)| (key.trim().to_ascii_lowercase(), value.trim().to_owned()))
        .collect();
    (status, headers, body.to_owned())
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.as_str())
}

#[test]
fn the_metadata_is_served_without_a_token_and_named_by_every_401() {
    let sandbox = Sandbox::new();
    let server = start(
        &sandbox,
        &[
            "--oauth-authorization-server",
            ISSUER,
            "--oauth-resource",
            RESOURCE,
        ],
    );
    for path in [format!("{METADATA}/mcp"), METADATA.to_owned()] {
        let (status, headers, body) = request(server.address, "GET", &path, "");
        assert_eq!(status, 200, "{path}: {body}");
        assert_eq!(header(&headers, "content-type"), Some("application/json"));
        let document: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(document["resource"], RESOURCE);
        assert_eq!(document["authorization_servers"], json!([ISSUER]));
        assert_eq!(document["bearer_methods_supported"], json!(["header"]));
        assert!(!body.contains(TOKEN));
    }
    let (status, headers, _) = request(server.address, "POST", &format!("{METADATA}/mcp"), "");
    assert_eq!(status, 405);
    assert_eq!(header(&headers, "allow"), Some("GET, HEAD"));
    let (status, _, _) = request(server.address, "GET", &format!("{METADATA}/other"), "");
    assert_eq!(status, 404);

    let expected = format!(r#"resource_metadata="https://mcp.example.com{METADATA}/mcp""#);
    for extra in ["", "Authorization: Bearer not-the-token-0123456789\r\n"] {
        let (status, headers, _) = request(server.address, "POST", "/mcp", extra);
        assert_eq!(status, 401);
        let challenge = header(&headers, "www-authenticate").unwrap();
        assert!(
            challenge.starts_with("Bearer realm=\"aigent\""),
            "{challenge}"
        );
        assert!(challenge.ends_with(&expected), "{challenge}");
    }
    // The token still opens the endpoint, and nothing else does.
    let (status, _, body) = request(
        server.address,
        "POST",
        "/mcp",
        &format!("Authorization: Bearer {TOKEN}\r\nMCP-Protocol-Version: 2025-06-18\r\n"),
    );
    assert_eq!(status, 200, "{body}");
}

#[test]
fn without_an_authorization_server_there_is_no_metadata() {
    let sandbox = Sandbox::new();
    let server = start(&sandbox, &[]);
    let (status, _, _) = request(server.address, "GET", METADATA, "");
    assert_eq!(status, 404);
    let (status, headers, _) = request(server.address, "POST", "/mcp", "");
    assert_eq!(status, 401);
    assert_eq!(
        header(&headers, "www-authenticate"),
        Some(r#"Bearer realm="aigent""#)
    );
}

#[test]
fn unusable_oauth_flags_refuse_to_start() {
    let sandbox = Sandbox::new();
    let run = |extra: &[&str]| {
        let output = serve(&sandbox, extra)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stderr).into_owned()
                + &String::from_utf8_lossy(&output.stdout),
        )
    };
    let (code, text) = run(&["--oauth-authorization-server", ISSUER]);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("--oauth-resource"), "{text}");
    let (code, text) = run(&["--oauth-resource", RESOURCE]);
    assert_eq!(code, Some(2), "{text}");
    let (code, text) = run(&[
        "--oauth-authorization-server",
        "http://auth.example.com",
        "--oauth-resource",
        RESOURCE,
    ]);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("https://"), "{text}");
    let (code, text) = run(&[
        "--oauth-authorization-server",
        ISSUER,
        "--oauth-resource",
        "https://mcp.example.com/mcp#frag",
    ]);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("fragment"), "{text}");
}
