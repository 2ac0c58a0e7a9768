//! Which host a request names, for the HTTP front's defence against DNS
//! rebinding: every `Host` header (exactly one is allowed, RFC 9112
//! §3.2), and the request target's authority when the target is in
//! absolute form (`POST http://name/mcp`), which must then be the same as
//! `Host`. Each is parsed strictly (a host name or an IP literal, and a
//! port from 1 to 65535 if any) and must be one the server answers to.

use std::net::Ipv6Addr;

/// The longest authority accepted: a DNS name (253) and a port.
const MAX_AUTHORITY_BYTES: usize = 253 + 6;

/// A host and port, normalized: lowercase, an IPv6 literal without its
/// brackets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Authority {
    host: String,
    port: Option<u16>,
}

impl Authority {
    /// Parses `host[:port]`, `[v6]` or `[v6]:port`; `Err` says what is
    /// wrong with it.
    pub fn parse(text: &str) -> Result<Self, &'static str> {
        if text.is_empty() {
            return Err("it is empty");
        }
        if text.len() > MAX_AUTHORITY_BYTES {
            return Err("it is too long");
        }
        let (host, port) = if let Some(rest) = text.strip_prefix('[') {
            let (literal, after) = rest
                .split_once(']')
                .ok_or("an IPv6 literal is not closed")?;
            literal
                .parse::<Ipv6Addr>()
                .map_err(|_| "the IPv6 literal is not an address")?;
            let port = match after {
                "" => None,
                _ => Some(
                    after
                        .strip_prefix(':')
                        .ok_or("junk after the IPv6 literal")?,
                ),
            };
            (literal.to_ascii_lowercase(), port)
        } else {
            let (host, port) = match text.split_once(':') {
                Some((host, port)) => (host, Some(port)),
                None => (text, None),
            };
            if host.is_empty() {
                return Err("it has no host");
            }
            let allowed = |byte: u8| byte.is_ascii_alphanumeric() || b"-._".contains(&byte);
            if !host.bytes().all(allowed) {
                return Err("the host has a character a host name cannot have");
            }
            (host.to_ascii_lowercase(), port)
        };
        let port = port.map(parse_port).transpose()?;
        Ok(Self { host, port })
    }

    /// Whether `self` (an entry of the allowed list) admits `named`: the
    /// same host, and the same port when the entry names one.
    fn admits(&self, named: &Authority) -> bool {
        self.host == named.host && self.port.is_none_or(|port| named.port == Some(port))
    }
}

/// A port: 1 to 5 digits, from 1 to 65535.
fn parse_port(text: &str) -> Result<u16, &'static str> {
    if text.is_empty() || text.len() > 5 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err("the port is not a number from 1 to 65535");
    }
    match text.parse::<u32>() {
        Ok(port @ 1..=65535) => Ok(port as u16),
        _ => Err("the port is not a number from 1 to 65535"),
    }
}

/// The hosts a server answers to: the loopback names, and those given.
#[derive(Debug, Clone)]
pub struct AllowedHosts(Vec<Authority>);

/// The loopback names every server answers to.
pub const LOOPBACK_NAMES: [&str; 3] = ["localhost", "127.0.0.1", "::1"];

impl AllowedHosts {
    /// The loopback names plus `extra` (each `NAME` or `NAME:PORT`); `Err`
    /// names one that does not parse.
    pub fn new(extra: &[String]) -> Result<Self, String> {
        let mut hosts: Vec<Authority> = LOOPBACK_NAMES
            .iter()
            .map(|name| Authority {
                host: (*name).to_owned(),
                port: None,
            })
            .collect();
        for name in extra {
            let bracketed;
            // A bare IPv6 address is accepted as it is written elsewhere.
            let text = if name.parse::<Ipv6Addr>().is_ok() {
                bracketed = format!("[{name}]");
                &bracketed
            } else {
                name
            };
            hosts.push(
                Authority::parse(text)
                    .map_err(|why| format!("--allowed-host `{name}` is not a host name: {why}"))?,
            );
        }
        Ok(Self(hosts))
    }

    fn admit(&self, named: &Authority) -> bool {
        self.0.iter().any(|allowed| allowed.admits(named))
    }
}

/// Why a request's host is refused; each is answered with its status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// `400`: no `Host`, more than one, one that does not parse, or one
    /// that is not the request target's.
    BadRequest(&'static str),
    /// `403`: a well-formed host the server does not answer to.
    Forbidden(&'static str),
}

/// Checks a request's `Host` headers and, for an absolute-form target,
/// its scheme and authority.
pub fn check(
    hosts: &[&[u8]],
    target_scheme: Option<&str>,
    target_authority: Option<&str>,
    allowed: &AllowedHosts,
) -> Result<(), Refusal> {
    let value = match hosts {
        [] => return Err(Refusal::BadRequest("the request has no Host header")),
        [one] => *one,
        _ => {
            return Err(Refusal::BadRequest(
                "the request has more than one Host header",
            ));
        }
    };
    let named = std::str::from_utf8(value)
        .ok()
        .and_then(|text| Authority::parse(text).ok())
        .ok_or(Refusal::BadRequest(
            "the Host header is not a host and port",
        ))?;
    if let Some(scheme) = target_scheme
        && !scheme.eq_ignore_ascii_case("http")
        && !scheme.eq_ignore_ascii_case("https")
    {
        return Err(Refusal::BadRequest("the request target is not an http URL"));
    }
    if let Some(authority) = target_authority {
        let target = Authority::parse(authority)
            .map_err(|_| Refusal::BadRequest("the request target's host is not a host and port"))?;
        if target != named {
            return Err(Refusal::BadRequest(
                "the request target names another host than the Host header",
            ));
        }
    }
    if allowed.admit(&named) {
        Ok(())
    } else {
        Err(Refusal::Forbidden(
            "the Host header names a host this server does not answer to",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn allowed() -> AllowedHosts {
        AllowedHosts::new(&[
            "mcp.example.com".to_owned(),
            "fixed.example:8443".to_owned(),
        ])
        .unwrap()
    }

    fn host(value: &str) -> Result<(), Refusal> {
        check(&[value.as_bytes()], None, None, &allowed())
    }

    #[test]
    fn loopback_and_given_names_pass_with_any_valid_port() {
        for ok in [
            "localhost",
            "LOCALHOST:8765",
            "127.0.0.1:1",
            "[::1]",
            "[::1]:65535",
            "mcp.example.com",
            "mcp.example.com:443",
            "fixed.example:8443",
        ] {
            assert_eq!(host(ok), Ok(()), "{ok}");
        }
    }

    #[test]
    fn bad_ports_and_malformed_hosts_are_bad_requests() {
        for bad in [
            "localhost:99999",
            "localhost:0",
            "localhost:",
            "localhost:80a",
            "localhost:000080",
            "localhost:-1",
            "user@localhost",
            "localhost/mcp",
            "local host",
            "[::1",
            "[::1]x",
            "[nope]",
            "::1",
            "",
        ] {
            assert!(
                matches!(host(bad), Err(Refusal::BadRequest(_))),
                "{bad}: {:?}",
                host(bad)
            );
        }
        let invalid_utf8: &[u8] = b"local\xffhost";
        assert!(matches!(
            check(&[invalid_utf8], None, None, &allowed()),
            Err(Refusal::BadRequest(_))
        ));
    }

    #[test]
    fn other_hosts_and_other_ports_of_a_fixed_entry_are_forbidden() {
        for other in [
            "evil.example",
            "evil.example:8765",
            "localhost.evil.example",
            "fixed.example",
            "fixed.example:443",
            "127.0.0.2",
        ] {
            assert!(matches!(host(other), Err(Refusal::Forbidden(_))), "{other}");
        }
    }

    #[test]
    fn exactly_one_host_header() {
        let allowed = allowed();
        assert!(matches!(
            check(&[], None, None, &allowed),
            Err(Refusal::BadRequest(_))
        ));
        assert!(matches!(
            check(&[b"localhost", b"localhost"], None, None, &allowed),
            Err(Refusal::BadRequest(_))
        ));
        assert!(matches!(
            check(&[b"localhost", b"evil.example"], None, None, &allowed),
            Err(Refusal::BadRequest(_))
        ));
    }

    #[test]
    fn an_absolute_target_must_name_the_host_header() {
        let allowed = allowed();
        let target = |scheme: &str, authority: &str, host: &str| {
            check(&[host.as_bytes()], Some(scheme), Some(authority), &allowed)
        };
        assert_eq!(target("http", "localhost", "localhost"), Ok(()));
        assert_eq!(target("http", "LocalHost:8080", "localhost:8080"), Ok(()));
        assert!(matches!(
            target("http", "evil.example", "localhost"),
            Err(Refusal::BadRequest(_))
        ));
        assert!(matches!(
            target("http", "localhost:8080", "localhost"),
            Err(Refusal::BadRequest(_))
        ));
        assert!(matches!(
            target("ftp", "localhost", "localhost"),
            Err(Refusal::BadRequest(_))
        ));
        assert!(matches!(
            target("http", "evil.example", "evil.example"),
            Err(Refusal::Forbidden(_))
        ));
    }

    #[test]
    fn allowed_hosts_are_checked_when_given() {
        assert!(AllowedHosts::new(&["good.example".to_owned()]).is_ok());
        assert!(AllowedHosts::new(&["2001:db8::1".to_owned()]).is_ok());
        for bad in ["bad host", "x:99999", "", "a@b"] {
            assert!(AllowedHosts::new(&[bad.to_owned()]).is_err(), "{bad}");
        }
        let v6 = AllowedHosts::new(&["2001:db8::1".to_owned()]).unwrap();
        assert_eq!(check(&[b"[2001:DB8::1]:80"], None, None, &v6), Ok(()));
    }
}
