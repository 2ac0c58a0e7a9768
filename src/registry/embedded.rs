//! The example declarations in `commands/`, compiled into the binary as the
//! default registry, so `aigent schema show deploy` works on a fresh
//! machine. A test fails when this table and the directory drift apart.

/// `(file name, contents)`, sorted by file name.
pub const EMBEDDED: &[(&str, &str)] = &[
    ("deploy.json", include_str!("../../commands/deploy.json")),
    (
        "files-get.yaml",
        include_str!("../../commands/files-get.yaml"),
    ),
    ("gh-api.json", include_str!("../../commands/gh-api.json")),
    ("git-log.json", include_str!("../../commands/git-log.json")),
    (
        "read_file.json",
        include_str!("../../commands/read_file.json"),
    ),
    (
        "run-script.yaml",
        include_str!("../../commands/run-script.yaml"),
    ),
    (
        "shell_exec.json",
        include_str!("../../commands/shell_exec.json"),
    ),
];

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn the_table_matches_the_commands_directory() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("commands");
        let mut on_disk: Vec<(String, String)> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.is_file())
            .map(|path| {
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                (name, std::fs::read_to_string(&path).unwrap())
            })
            .collect();
        on_disk.sort();
        let embedded: Vec<(String, String)> = EMBEDDED
            .iter()
            .map(|(name, text)| ((*name).to_owned(), (*text).to_owned()))
            .collect();
        assert_eq!(
            embedded.iter().map(|(name, _)| name).collect::<Vec<_>>(),
            on_disk.iter().map(|(name, _)| name).collect::<Vec<_>>(),
            "src/contract/embedded.rs must list exactly the files in commands/"
        );
        assert_eq!(embedded, on_disk);
    }
}
