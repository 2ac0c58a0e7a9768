//! The built-in catalog (`catalog/`), compiled into the binary: the
//! contracts of the programs coding agents run every day (DESIGN.md §12),
//! the registry's bottom layer. `CATALOG` holds the declarations,
//! `CATALOG_DENY` the catastrophic forms the hook refuses before anything
//! else; each entry is `(file name, text, program)`, sorted by file name.
//! build.rs writes both tables; the tests below hold them to the
//! directories and to the declarations they parse into.

include!(concat!(env!("OUT_DIR"), "/catalog.rs"));

/// The catalog's entry for the declaration named `name`, found by binary
/// search: the table is sorted by file name, and every catalog file is
/// `NAME.json` (build.rs embeds no other).
pub fn catalog_entry(
    name: &str,
) -> Option<&'static (&'static str, &'static str, &'static str, &'static str)> {
    let wanted = || name.bytes().chain(*b".json");
    CATALOG
        .binary_search_by(|(file_name, ..)| file_name.bytes().cmp(wanted()))
        .ok()
        .map(|at| &CATALOG[at])
}

/// The command name of a catalog file name (`git-log.json`: `git-log`).
pub fn catalog_name(file_name: &str) -> &str {
    file_name.strip_suffix(".json").unwrap_or(file_name)
}

/// Catalog entries the layers' settings switch off (`[hook] catalog =
/// false`, `disable = [NAME or PROGRAM, ...]`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CatalogSwitch {
    pub off: bool,
    /// Names of catalog declarations, or programs, switched off.
    pub disabled: Vec<String>,
}

impl CatalogSwitch {
    pub fn allows(&self, name: &str, program: &str) -> bool {
        !self.off
            && !self
                .disabled
                .iter()
                .any(|entry| entry == name || entry == program)
    }
}

/// The catalog's declarations of the program named `program` whose key
/// word (their first subcommand word, `log` for `git log`; empty for none)
/// is `key_word`: what the catalog knows of that form's options (`-n` is
/// also `--max-count` to `git log`). Parsed on the first call for each
/// pair in a process, and only on the rare paths that need them.
pub fn catalog_declarations_of(
    program: &str,
    key_word: &str,
) -> std::rc::Rc<Vec<crate::contract::Declaration>> {
    use std::cell::RefCell;
    use std::collections::HashMap;
    use std::rc::Rc;
    type Parsed = HashMap<(String, String), Rc<Vec<crate::contract::Declaration>>>;
    thread_local! {
        static PARSED: RefCell<Parsed> = RefCell::new(HashMap::new());
    }
    PARSED.with(|parsed| {
        Rc::clone(
            parsed
                .borrow_mut()
                .entry((program.to_owned(), key_word.to_owned()))
                .or_insert_with(|| {
                    Rc::new(
                        CATALOG
                            .iter()
                            .filter(|(_, _, name, key)| *name == program && *key == key_word)
                            .filter_map(|(_, text, _, _)| {
                                crate::contract::read_builtin_declaration(
                                    text,
                                    &crate::contract::Origin::default(),
                                )
                                .declaration
                            })
                            .collect(),
                    )
                }),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn on_disk(dir: &str) -> Vec<(String, String)> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
        let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.is_file())
            .map(|path| {
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                (name, std::fs::read_to_string(&path).unwrap())
            })
            .collect();
        files.sort();
        files
    }

    #[test]
    fn the_tables_match_the_catalog_directories() {
        for (table, dir) in [(CATALOG, "catalog"), (CATALOG_DENY, "catalog/deny")] {
            let embedded: Vec<(String, String)> = table
                .iter()
                .map(|(name, text, ..)| ((*name).to_owned(), (*text).to_owned()))
                .collect();
            assert_eq!(
                embedded,
                on_disk(dir),
                "{dir}: only JSON files, all embedded"
            );
        }
    }

    #[test]
    fn each_entry_is_found_by_its_name_and_no_other() {
        for entry in CATALOG {
            let name = catalog_name(entry.0);
            assert_eq!(catalog_entry(name), Some(entry), "{name}");
            assert_eq!(catalog_entry(&format!("{name}-")), None);
            assert_eq!(
                catalog_entry(&name[..name.len() - 1]).map(|e| e.0),
                CATALOG
                    .iter()
                    .find(|e| catalog_name(e.0) == &name[..name.len() - 1])
                    .map(|e| e.0)
            );
        }
        assert_eq!(catalog_entry(""), None);
        assert_eq!(catalog_entry("git-log.json"), None);
    }

    #[test]
    fn each_program_and_key_word_is_the_declarations_own() {
        for (name, text, program, key) in CATALOG.iter().chain(CATALOG_DENY) {
            let parsed = crate::registry::parse_declaration(
                text,
                crate::contract::SourceFormat::Json,
                &crate::contract::Origin::default(),
            );
            let subprocess = parsed.declaration.unwrap().subprocess.unwrap();
            assert_eq!(
                subprocess.binary, *program,
                "{name}: build.rs read the wrong program"
            );
            assert_eq!(
                crate::registry::programs::key_word(&subprocess.argv).unwrap_or_default(),
                *key,
                "{name}: build.rs read the wrong key word"
            );
        }
    }
}
