//! Real bash as the oracle for the hook's shell reading (issue 38).
//!
//! A [`Lab`] runs a line with `bash -c` in a throwaway project directory
//! and reports what happened ([`Effects`]):
//!
//! - every program the line can name is a shim on `PATH` (and nothing
//!   else is): a bash script of builtins that records its name, arguments,
//!   working directory, exported environment and the first line of a
//!   regular file on its standard input;
//! - a loopback listener counts every connection (`/dev/tcp/127.0.0.1/PORT`
//!   is the only address the generated lines use);
//! - the files of the throwaway directory are compared before and after;
//! - where `strace` exists and may trace, every `execve` and `connect` of
//!   the run is recorded as well, which also catches a program run by its
//!   absolute path (no shim sees that).
//!
//! What the effects mean is the caller's business (`shell_fuzz.rs`).

use std::collections::BTreeMap;
use std::io::Read;
use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

/// The programs a line may name: each is a shim.
pub const SHIMS: &[&str] = &[
    "git", "cargo", "jq", "wc", "cat", "ls", "head", "tail", "touch", "rm", "id", "curl", "pwned",
    "sh", "bash", "env", "xargs", "sleep", "mkdir", "tee", "printenv",
];

/// The first line of the file outside the project that no allowed line
/// may read.
pub const SECRET: &str = "SECRET-OUTSIDE-THE-PROJECT";

/// How long one line may run.
const RUN_LIMIT: Duration = Duration::from_secs(5);

/// One shim run: how bash started a program.
#[derive(Debug, Clone)]
pub struct Exec {
    /// The shim's name (the program bash found on `PATH`).
    pub program: String,
    pub arguments: Vec<String>,
    pub cwd: PathBuf,
    /// Its exported environment, less what bash manages itself.
    pub env: BTreeMap<String, String>,
    /// The first line of its standard input, when that is a regular file.
    pub stdin_first_line: Option<String>,
}

/// What one run did.
#[derive(Debug, Default)]
pub struct Effects {
    pub execs: Vec<Exec>,
    /// Connections the loopback listener accepted.
    pub connections: usize,
    /// Files of the throwaway directory that appeared, changed or went
    /// away, relative to it.
    pub changed: Vec<String>,
    /// From strace: programs executed other than bash and the shims.
    pub traced_execs: Vec<String>,
    /// From strace: `connect` calls to an internet address.
    pub traced_connects: Vec<String>,
    pub timed_out: bool,
}

/// A throwaway project where lines run, with shims, a listener and a log.
pub struct Lab {
    root: tempfile::TempDir,
    bash: PathBuf,
    strace: Option<PathBuf>,
    listener: TcpListener,
}

/// Why a lab cannot be set up here (the caller skips, saying so).
#[derive(Debug)]
pub struct Missing(pub String);

impl Lab {
    /// A lab, or why this machine cannot host one (no bash).
    pub fn new() -> Result<Self, Missing> {
        let bash = ["/bin/bash", "/usr/bin/bash"]
            .iter()
            .map(PathBuf::from)
            .find(|path| path.is_file())
            .ok_or_else(|| Missing("bash is not installed (/bin/bash, /usr/bin/bash)".into()))?;
        let root = tempfile::tempdir().expect("a temporary directory");
        let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback listener");
        listener
            .set_nonblocking(true)
            .expect("a non-blocking listener");
        let lab = Self {
            root,
            bash,
            strace: None,
            listener,
        };
        std::fs::create_dir_all(lab.bin()).unwrap();
        std::fs::create_dir_all(lab.logs()).unwrap();
        for name in SHIMS {
            lab.write_shim(&lab.bin().join(name));
        }
        let strace = ["/usr/bin/strace", "/bin/strace"]
            .iter()
            .map(PathBuf::from)
            .find(|path| path.is_file())
            .filter(|strace| {
                // Tracing may be forbidden (a container without ptrace).
                Command::new(strace)
                    .args(["-f", "-qq", "-e", "trace=execve", "-o", "/dev/null", "--"])
                    .arg(&lab.bash)
                    .args(["-c", ":"])
                    .stdin(Stdio::null())
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .status()
                    .is_ok_and(|status| status.success())
            });
        Ok(Self { strace, ..lab })
    }

    /// Whether runs are also traced with strace.
    pub fn traced(&self) -> bool {
        self.strace.is_some()
    }

    pub fn port(&self) -> u16 {
        self.listener.local_addr().unwrap().port()
    }

    /// Where registries and settings may be written; not part of a run.
    pub fn root(&self) -> &Path {
        self.root.path()
    }

    fn bin(&self) -> PathBuf {
        self.root.path().join("bin")
    }

    fn logs(&self) -> PathBuf {
        self.root.path().join("logs")
    }

    fn case(&self) -> PathBuf {
        self.root.path().join("case")
    }

    /// The project directory lines run in (the same path for every run).
    pub fn project(&self) -> PathBuf {
        self.case().join("project")
    }

    /// A directory beside the project, holding the secret.
    pub fn outside(&self) -> PathBuf {
        self.case().join("outside")
    }

    /// The directory the shims are in, for the hook's `which`.
    pub fn shim_dir(&self) -> PathBuf {
        self.bin()
    }

    fn home(&self) -> PathBuf {
        self.case().join("home")
    }

    /// The environment bash starts with; a shim must see exactly this.
    pub fn baseline_env(&self) -> BTreeMap<String, String> {
        [
            ("PATH", self.bin().display().to_string()),
            ("HOME", self.home().display().to_string()),
            ("LC_ALL", "C".to_owned()),
            // Exported in many sessions; git reads its config there.
            (
                "XDG_CONFIG_HOME",
                self.home().join(".config").display().to_string(),
            ),
        ]
        .into_iter()
        .map(|(name, value)| (name.to_owned(), value))
        .collect()
    }

    fn write_shim(&self, path: &Path) {
        // Builtins only: PATH holds nothing else. One file per run of a
        // shim, so concurrent ones (a pipeline) do not interleave.
        let script = format!(
            r#"#!{bash}
exec 9>"{logs}/$BASHPID.$SRANDOM" || exit 0
first=
if [[ -f /dev/stdin ]]; then IFS= read -r -n 200 first </dev/stdin; fi
names=($(compgen -e))
printf '%s\0' "${{0##*/}}" "$(pwd -P)" "$first" "$#" "$@" "${{#names[@]}}" >&9
for name in "${{names[@]}}"; do printf '%s\0' "$name=${{!name}}" >&9; done
exit 0
"#,
            bash = self.bash.display(),
            logs = self.logs().display(),
        );
        super::write_executable(path, script.as_bytes());
    }

    /// The throwaway project, made afresh: a git work tree's marker, a few
    /// files, `sub/`, `out/` (where the fuzz registry lets redirections
    /// write), and `10/` … `12/` holding a `git` shim (bash gives `{NAME}>`
    /// descriptors from 10 up, so `PATH` set to one finds it).
    fn reset(&self) {
        let case = self.case();
        if case.exists() {
            std::fs::remove_dir_all(&case).unwrap();
        }
        let project = self.project();
        for dir in [".git", "sub", "out", "src", "10", "11", "12"] {
            std::fs::create_dir_all(project.join(dir)).unwrap();
        }
        std::fs::create_dir_all(self.outside()).unwrap();
        std::fs::create_dir_all(self.home()).unwrap();
        std::fs::write(project.join("README.md"), "# readme\n").unwrap();
        std::fs::write(project.join("data.json"), "{\"name\": \"data\"}\n").unwrap();
        std::fs::write(project.join("src/a.rs"), "fn a() {}\n").unwrap();
        std::fs::write(self.outside().join("secret.txt"), format!("{SECRET}\n")).unwrap();
        for dir in ["10", "11", "12"] {
            self.write_shim(&project.join(dir).join("git"));
        }
        for entry in std::fs::read_dir(self.logs()).unwrap() {
            std::fs::remove_file(entry.unwrap().path()).unwrap();
        }
    }

    /// Runs `line` with `bash -c` in the project and reports its effects.
    pub fn run(&self, line: &str) -> Effects {
        self.reset();
        let before = files(&self.case());
        while self.listener.accept().is_ok() {}
        let trace = self.root.path().join("trace");
        let _ = std::fs::remove_file(&trace);
        let mut command = match &self.strace {
            Some(strace) => {
                let mut command = Command::new(strace);
                command
                    .args(["-f", "-qq", "-e", "trace=execve,connect", "-o"])
                    .arg(&trace)
                    .arg("--")
                    .arg(&self.bash);
                command
            }
            None => Command::new(&self.bash),
        };
        command
            .args(["-c", line])
            .current_dir(self.project())
            .env_clear()
            .envs(self.baseline_env())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0);
        let mut child = command.spawn().expect("bash starts");
        let group = rustix::process::Pid::from_raw(child.id() as i32).expect("a process id");
        let started = Instant::now();
        let mut effects = Effects::default();
        loop {
            if child.try_wait().expect("wait").is_some() {
                break;
            }
            if started.elapsed() > RUN_LIMIT {
                effects.timed_out = true;
                let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
                let _ = child.wait();
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        // Background commands may outlive bash: wait for the group to end.
        let waited = Instant::now();
        while rustix::process::test_kill_process_group(group).is_ok() {
            if waited.elapsed() > Duration::from_secs(2) {
                let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        while let Ok((mut stream, _)) = self.listener.accept() {
            effects.connections += 1;
            let _ = stream.set_read_timeout(Some(Duration::from_millis(10)));
            let _ = stream.read(&mut [0; 64]);
        }
        effects.execs = self.records();
        let after = files(&self.case());
        for (path, stamp) in &after {
            if before.get(path) != Some(stamp) {
                effects.changed.push(path.clone());
            }
        }
        for path in before.keys() {
            if !after.contains_key(path) {
                effects.changed.push(path.clone());
            }
        }
        if self.strace.is_some() {
            self.read_trace(&trace, &mut effects);
        }
        effects
    }

    fn records(&self) -> Vec<Exec> {
        let mut execs = Vec::new();
        let managed = ["PWD", "OLDPWD", "SHLVL", "_"];
        for entry in std::fs::read_dir(self.logs()).unwrap() {
            let bytes = std::fs::read(entry.unwrap().path()).unwrap();
            let text = String::from_utf8_lossy(&bytes);
            let mut fields = text.split('\0');
            let mut next = || fields.next().unwrap_or_default().to_owned();
            let program = next();
            let cwd = PathBuf::from(next());
            let first = next();
            let count: usize = next().parse().unwrap_or(0);
            let arguments = (0..count).map(|_| next()).collect();
            let names: usize = next().parse().unwrap_or(0);
            let env = (0..names)
                .filter_map(|_| {
                    let pair = next();
                    let (name, value) = pair.split_once('=')?;
                    (!managed.contains(&name)).then(|| (name.to_owned(), value.to_owned()))
                })
                .collect();
            execs.push(Exec {
                program,
                arguments,
                cwd,
                env,
                stdin_first_line: (!first.is_empty()).then_some(first),
            });
        }
        execs
    }

    /// strace's `execve` and `connect` lines: a program other than bash
    /// and the shims, a connection to an internet address.
    fn read_trace(&self, trace: &Path, effects: &mut Effects) {
        let text = std::fs::read_to_string(trace).unwrap_or_default();
        let bin = self.bin().display().to_string();
        let project = self.project().display().to_string();
        let bash = self.bash.display().to_string();
        for line in text.lines() {
            if let Some(rest) = line.split_once("execve(\"").map(|(_, rest)| rest) {
                if line.contains("= -1 ") {
                    continue;
                }
                let path = rest.split('"').next().unwrap_or_default();
                let shim = path.starts_with(&bin)
                    || (path.starts_with(&project) && path.ends_with("/git"));
                if !shim && path != bash {
                    effects.traced_execs.push(path.to_owned());
                }
            } else if line.contains("connect(")
                && (line.contains("AF_INET") || line.contains("AF_INET6"))
            {
                effects.traced_connects.push(line.to_owned());
            }
        }
    }
}

/// Every file and directory under `root`, relative, with its size and
/// modification time (directories: size only).
fn files(root: &Path) -> BTreeMap<String, (u64, Option<SystemTime>)> {
    let mut found = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(metadata) = std::fs::symlink_metadata(&path) else {
                continue;
            };
            let relative = path
                .strip_prefix(root)
                .unwrap_or(&path)
                .display()
                .to_string();
            if metadata.is_dir() {
                found.insert(relative, (0, None));
                stack.push(path);
            } else {
                found.insert(relative, (metadata.len(), metadata.modified().ok()));
            }
        }
    }
    found
}
