//! No circle of files: the `use` imports between the files of each workspace crate form no
//! cycle.
//!
//! Every crate's module tree is followed from its roots (`src/lib.rs`, `src/main.rs`) through
//! its `mod` declarations (`#[path]` included); each file is a node. Each `use` of a path that
//! starts with `crate::`, `super::`, `self::` or a child module's name is an arrow from the file
//! that holds the `use` to the file of the longest module prefix of the path: `use super::X` is
//! an arrow to the parent's file even when the parent only re-exports `X` from a child, so a
//! parent's `pub use child::X` and the child's `use super::Y` count as a circle. Imports inside
//! inline modules (`mod tests { use super::*; }`) resolve from the inline module. Comments,
//! strings and character literals are skipped.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

/// One file of a crate's module tree.
struct ModuleFile {
    /// Module path from the crate root (`[]` for `lib.rs`/`main.rs`).
    module: Vec<String>,
    /// The file.
    path: PathBuf,
}

/// A crate's files, indexed by their module paths.
struct CrateTree {
    files: Vec<ModuleFile>,
    by_module: BTreeMap<Vec<String>, usize>,
}

#[test]
fn no_circle_of_files_in_any_crate() {
    let workspace = workspace_root();
    let mut report = String::new();
    let mut roots_seen = 0;
    for root in crate_roots(&workspace) {
        roots_seen += 1;
        let tree = CrateTree::read(&root);
        let edges = tree.edges();
        let name = |i: usize| {
            let path = &tree.files[i].path;
            path.strip_prefix(&workspace)
                .unwrap_or(path)
                .display()
                .to_string()
        };
        for cycle in tree.cycles() {
            let members: BTreeSet<usize> = cycle.iter().copied().collect();
            let _ = writeln!(report, "circle of {} files:", cycle.len());
            for &from in &cycle {
                for (to, path) in edges[from].iter().filter(|(to, _)| members.contains(to)) {
                    let _ = writeln!(report, "  {} -> {} (use {path})", name(from), name(*to));
                }
            }
        }
    }
    assert!(
        roots_seen >= 8,
        "found only {roots_seen} crate roots under {}",
        workspace.display()
    );
    assert!(
        report.is_empty(),
        "files that import each other (directly or through a chain):\n{report}"
    );
}

#[test]
fn the_checker_finds_a_circle_through_a_parents_re_export() {
    let dir = std::env::temp_dir().join(format!("gripline-cycle-check-{}", std::process::id()));
    let src = dir.join("src");
    fs::create_dir_all(src.join("a")).unwrap();
    fs::write(src.join("lib.rs"), "mod a;\nmod b;\n").unwrap();
    fs::write(
        src.join("a/mod.rs"),
        "mod child;\npub use child::Thing;\npub struct Other;\n",
    )
    .unwrap();
    // "use super::Other" from the child: a circle with the parent's `pub use child::Thing`.
    fs::write(
        src.join("a/child.rs"),
        "// use crate::b::Nothing;\nuse super::Other;\npub struct Thing;\n",
    )
    .unwrap();
    fs::write(
        src.join("b.rs"),
        "use crate::a::{child::Thing, Other};\nconst S: &str = \"use crate::a;\";\n",
    )
    .unwrap();
    let tree = CrateTree::read(&src.join("lib.rs"));
    let cycles = tree.cycles();
    fs::remove_dir_all(&dir).unwrap();
    assert_eq!(cycles.len(), 1, "one circle: a/mod.rs <-> a/child.rs");
    let mut names: Vec<String> = cycles[0]
        .iter()
        .map(|&i| {
            tree.files[i]
                .path
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    assert_eq!(names, ["child.rs", "mod.rs"]);
}

/// The workspace folder (the parent of this crate's folder).
fn workspace_root() -> PathBuf {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
    Path::new(&manifest)
        .parent()
        .expect("crate folder has a parent")
        .to_path_buf()
}

/// `src/lib.rs` and `src/main.rs` of every workspace member (a folder with a `Cargo.toml`).
fn crate_roots(workspace: &Path) -> Vec<PathBuf> {
    let mut roots = Vec::new();
    let mut members: Vec<PathBuf> = fs::read_dir(workspace)
        .expect("workspace folder readable")
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.join("Cargo.toml").is_file() && path.join("src").is_dir())
        .collect();
    members.sort();
    for member in members {
        for root in ["lib.rs", "main.rs"] {
            let path = member.join("src").join(root);
            if path.is_file() {
                roots.push(path);
            }
        }
    }
    roots
}

impl CrateTree {
    /// Follows the `mod` declarations from `root`.
    fn read(root: &Path) -> Self {
        let mut tree = Self {
            files: Vec::new(),
            by_module: BTreeMap::new(),
        };
        let mut pending = vec![(Vec::new(), root.to_path_buf())];
        while let Some((module, path)) = pending.pop() {
            if tree.by_module.contains_key(&module) {
                continue;
            }
            let Ok(text) = fs::read_to_string(&path) else {
                continue;
            };
            let tokens = tokenize(&strip_comments_and_literals(&text));
            let dir = child_dir(&path, module.is_empty());
            for (name, explicit) in mod_declarations(&text, &tokens) {
                let mut child = module.clone();
                child.push(name.clone());
                let flat = dir.join(format!("{name}.rs"));
                let file = if let Some(relative) = explicit {
                    path.parent().unwrap().join(relative)
                } else if flat.is_file() {
                    flat
                } else {
                    dir.join(&name).join("mod.rs")
                };
                pending.push((child, file));
            }
            tree.by_module.insert(module.clone(), tree.files.len());
            tree.files.push(ModuleFile { module, path });
        }
        tree
    }

    /// The arrows from each file to the files it imports from, each with the first path that
    /// draws it.
    fn edges(&self) -> Vec<BTreeMap<usize, String>> {
        self.files
            .iter()
            .enumerate()
            .map(|(index, file)| {
                let text = fs::read_to_string(&file.path).unwrap_or_default();
                let tokens = tokenize(&strip_comments_and_literals(&text));
                let mut targets = BTreeMap::new();
                for (inline, path) in use_paths(&tokens) {
                    let mut here = file.module.clone();
                    here.extend(inline);
                    if let Some(target) = self.resolve(&here, &path)
                        && target != index
                    {
                        targets.entry(target).or_insert_with(|| path.join("::"));
                    }
                }
                targets
            })
            .collect()
    }

    /// The file of the longest module prefix of `path` used from module `here`.
    fn resolve(&self, here: &[String], path: &[String]) -> Option<usize> {
        let mut absolute: Vec<String> = Vec::new();
        let mut rest = path;
        match path.first().map(String::as_str) {
            Some("crate") => rest = &path[1..],
            Some("self") => {
                absolute = here.to_vec();
                rest = &path[1..];
            }
            Some("super") => {
                absolute = here.to_vec();
                while rest.first().map(String::as_str) == Some("super") {
                    absolute.pop()?;
                    rest = &rest[1..];
                }
            }
            Some(first) => {
                // A bare path names a child module of this one (or an outside crate: no arrow).
                let mut child = here.to_vec();
                child.push(first.to_string());
                if !self.by_module.contains_key(&child) {
                    return None;
                }
                absolute = here.to_vec();
            }
            None => return None,
        }
        absolute.extend(rest.iter().cloned());
        (0..=absolute.len())
            .rev()
            .find_map(|len| self.by_module.get(&absolute[..len]).copied())
    }

    /// Every circle of files, each once, as the files of one strongly connected component.
    fn cycles(&self) -> Vec<Vec<usize>> {
        let edges: Vec<BTreeSet<usize>> = self
            .edges()
            .into_iter()
            .map(|targets| targets.into_keys().collect())
            .collect();
        strongly_connected(&edges)
            .into_iter()
            .filter(|component| component.len() > 1)
            .collect()
    }
}

/// The folder where a file's child modules live.
fn child_dir(path: &Path, is_root: bool) -> PathBuf {
    let parent = path.parent().unwrap().to_path_buf();
    let stem = path.file_stem().unwrap().to_string_lossy();
    if is_root || stem == "mod" {
        parent
    } else {
        parent.join(stem.as_ref())
    }
}

/// Tarjan's strongly connected components.
fn strongly_connected(edges: &[BTreeSet<usize>]) -> Vec<Vec<usize>> {
    struct State<'a> {
        edges: &'a [BTreeSet<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(s: &mut State, v: usize) {
        s.index[v] = Some(s.next);
        s.low[v] = s.next;
        s.next += 1;
        s.stack.push(v);
        s.on_stack[v] = true;
        for &w in &s.edges[v] {
            match s.index[w] {
                None => {
                    visit(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(iw) if s.on_stack[w] => s.low[v] = s.low[v].min(iw),
                Some(_) => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack[w] = false;
                component.push(w);
                if w == v {
                    break;
                }
            }
            s.out.push(component);
        }
    }
    let n = edges.len();
    let mut s = State {
        edges,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if s.index[v].is_none() {
            visit(&mut s, v);
        }
    }
    s.out
}

/// The source with comments removed and string and character literals emptied (their quotes
/// kept), so that neither can be read as code.
fn strip_comments_and_literals(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && !prev_is_ident(&chars, i)
        {
            // Raw string r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= chars.len() {
                    break;
                }
                if chars[j] == '"' && (0..hashes).all(|k| chars.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c == '"' {
            let mut j = i + 1;
            while j < chars.len() && chars[j] != '"' {
                if chars[j] == '\\' {
                    j += 1;
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j + 1;
        } else if c == '\'' {
            // A character literal ('a', '\n', '\u{..}') or a lifetime ('a): a literal closes
            // within a few characters.
            let close = if next == Some('\\') {
                (i + 2..chars.len().min(i + 12)).find(|&j| chars[j] == '\'')
            } else if chars.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            if let Some(end) = close {
                out.push_str("' '");
                i = end + 1;
            } else {
                out.push(c);
                i += 1;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn prev_is_ident(chars: &[char], i: usize) -> bool {
    i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_')
}

/// Identifiers, `::` and single punctuation characters.
fn tokenize(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            tokens.push(chars[start..i].iter().collect());
        } else if c == ':' && chars.get(i + 1) == Some(&':') {
            tokens.push("::".into());
            i += 2;
        } else {
            tokens.push(c.to_string());
            i += 1;
        }
    }
    tokens
}

/// `mod name;` declarations (inline `mod name { ... }` blocks are part of the file), with the
/// file named by a preceding `#[path = "..."]` attribute.
fn mod_declarations(raw: &str, tokens: &[String]) -> Vec<(String, Option<String>)> {
    let mut explicit = BTreeMap::new();
    let mut rest = raw;
    while let Some(at) = rest.find("#[path = \"") {
        let after = &rest[at + 10..];
        let Some(end) = after.find('"') else { break };
        let file = after[..end].to_string();
        let declared = after[end..].split("mod ").nth(1).and_then(|tail| {
            tail.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .next()
        });
        if let Some(name) = declared {
            explicit.insert(name.to_string(), file);
        }
        rest = &after[end..];
    }
    let mut out = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        if token == "mod"
            && tokens.get(i + 2).map(String::as_str) == Some(";")
            && let Some(name) = tokens.get(i + 1)
        {
            out.push((name.clone(), explicit.get(name).cloned()));
        }
    }
    out
}

/// Every path a `use` declaration names, expanded from its tree (`a::{b, c::*}` gives `a::b`
/// and `a::c`), with the inline modules (`mod name { ... }`) the declaration sits in.
fn use_paths(tokens: &[String]) -> Vec<(Vec<String>, Vec<String>)> {
    let mut out = Vec::new();
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < tokens.len() {
        match tokens[i].as_str() {
            "{" => depth += 1,
            "}" => {
                depth = depth.saturating_sub(1);
                if inline.last().is_some_and(|&(_, open)| open == depth) {
                    inline.pop();
                }
            }
            "mod" if tokens.get(i + 2).map(String::as_str) == Some("{") => {
                inline.push((tokens[i + 1].clone(), depth));
                depth += 1;
                i += 3;
                continue;
            }
            "use" => {
                let end = tokens[i..]
                    .iter()
                    .position(|t| t == ";")
                    .map_or(tokens.len(), |p| i + p);
                let names: Vec<String> = inline.iter().map(|(name, _)| name.clone()).collect();
                let mut paths = Vec::new();
                expand_use_tree(&tokens[i + 1..end], &mut Vec::new(), &mut paths);
                out.extend(paths.into_iter().map(|path| (names.clone(), path)));
                i = end;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// Expands one use tree (the tokens between `use` and `;`) under `prefix`.
fn expand_use_tree(tokens: &[String], prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    let start = prefix.len();
    let mut i = 0;
    // A leading `::` (an outside crate) gives no arrow.
    if tokens.first().map(String::as_str) == Some("::") {
        return;
    }
    while i < tokens.len() {
        let token = tokens[i].as_str();
        match token {
            "::" => {}
            "{" => {
                // Split the group on top-level commas.
                let mut level = 0;
                let mut item_start = i + 1;
                let mut j = i + 1;
                while j < tokens.len() {
                    match tokens[j].as_str() {
                        "{" => level += 1,
                        "}" if level == 0 => break,
                        "}" => level -= 1,
                        "," if level == 0 => {
                            expand_use_tree(&tokens[item_start..j], prefix, out);
                            item_start = j + 1;
                        }
                        _ => {}
                    }
                    j += 1;
                }
                expand_use_tree(&tokens[item_start..j.min(tokens.len())], prefix, out);
                prefix.truncate(start);
                return;
            }
            "*" | "as" => break,
            _ if token.chars().all(|c| c.is_alphanumeric() || c == '_') => {
                prefix.push(token.to_string());
            }
            // `use<'a>` in an impl Trait or anything else that is not a use tree.
            _ => {
                prefix.truncate(start);
                return;
            }
        }
        i += 1;
    }
    if prefix.len() > start || !prefix.is_empty() {
        out.push(prefix.clone());
    }
    prefix.truncate(start);
}
