//! Reading a TORCS parameter file (`<params>`, `<section name=>`, `<attnum name= val= unit=>`,
//! `<attstr name= val=>`) into [`Params`], with the document type's external entities
//! included: a track file declares `<!ENTITY default-surfaces SYSTEM
//! "../../../data/tracks/surfaces.xml">` and writes `&default-surfaces;` where that file's
//! sections belong. The entity's file is resolved relative to the file that declares it and
//! parsed as a fragment (several sections, an optional XML declaration). Line numbers in
//! errors are those of the file concerned. Other elements are ignored, as TORCS ignores them.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::error::TorcsError;
use crate::line_index::LineIndex;
use crate::params::{Attribute, Params, Section, Value};
use crate::units;

/// Name of the element an external entity reference is replaced with before parsing.
const ENTITY_ELEMENT: &str = "gripline-entity";
/// Name of the element wrapped around an included fragment.
const FRAGMENT_ELEMENT: &str = "gripline-fragment";
/// Deepest nesting of included files.
const MAX_INCLUDE_DEPTH: usize = 8;

/// What an entity declaration stands for.
#[derive(Clone, Debug)]
enum Entity {
    /// `SYSTEM "file"`: the file, resolved.
    External(PathBuf),
    /// A literal replacement text.
    Internal(String),
}

/// Reads and parses a TORCS parameter file.
///
/// # Errors
/// [`TorcsError`] naming the file (or the included file) and what is wrong.
pub fn read_params(path: &Path) -> Result<Params, TorcsError> {
    let text = read_text(path)?;
    parse_params(&text, path)
}

/// Parses the text of a TORCS parameter file; entities are resolved relative to `path`.
///
/// # Errors
/// [`TorcsError`] naming the file (or the included file) and what is wrong.
pub fn parse_params(text: &str, path: &Path) -> Result<Params, TorcsError> {
    let (prepared, entities) = prepare(text, path, &HashMap::new())?;
    let (prepared, skipped) = skip_undeclared(&prepared);
    let doc = parse_xml(&prepared, path)?;
    let root = doc.root_element();
    if root.tag_name().name() != "params" {
        return Err(xml_error(
            &doc,
            path,
            root.range().start,
            format!(
                "the root element is <{}>; a TORCS parameter file has <params>",
                root.tag_name().name()
            ),
        ));
    }
    let file: Arc<Path> = Arc::from(path);
    let lines = LineIndex::new(doc.input_text());
    let mut section = Section {
        name: root.attribute("name").unwrap_or_default().to_owned(),
        file: file.clone(),
        line: lines.row(root.range().start),
        attributes: Vec::new(),
        sections: Vec::new(),
    };
    fill(&doc, &lines, root, &mut section, &file, &entities, 0)?;
    let warnings = skipped
        .into_iter()
        .map(|name| {
            format!(
                "{}: entity '&{name};' is not declared and was skipped",
                path.display()
            )
        })
        .collect();
    Ok(Params {
        path: path.to_owned(),
        root: section,
        warnings,
    })
}

/// Removes references to entities that are neither declared nor XML's own (`&amp;`...) from
/// element content, as TORCS's parser skips them; returns their names.
fn skip_undeclared(text: &str) -> (String, Vec<String>) {
    const BUILT_IN: [&str; 5] = ["amp", "lt", "gt", "quot", "apos"];
    let mut skipped: Vec<String> = Vec::new();
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(['<', '&']) {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        if rest.starts_with("<!--") {
            let end = rest[4..].find("-->").map_or(rest.len(), |e| e + 7);
            out.push_str(&rest[..end]);
            rest = &rest[end..];
        } else if rest.starts_with('<') {
            let end = tag_end(rest);
            out.push_str(&rest[..end]);
            rest = &rest[end..];
        } else {
            let name_end = rest[1..]
                .find(|c: char| !(c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | ':')))
                .map_or(rest.len(), |e| e + 1);
            let name = &rest[1..name_end];
            let is_reference = rest[name_end..].starts_with(';')
                && !name.is_empty()
                && !name.starts_with(|c: char| c.is_ascii_digit());
            if is_reference && !BUILT_IN.contains(&name) {
                if !skipped.iter().any(|s| s == name) {
                    skipped.push(name.to_owned());
                }
                rest = &rest[name_end + 1..];
            } else {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    (out, skipped)
}

fn read_text(path: &Path) -> Result<String, TorcsError> {
    let bytes = std::fs::read(path).map_err(|source| TorcsError::Io {
        path: path.to_owned(),
        source,
    })?;
    // The files declare UTF-8; a stray Latin-1 byte in a comment must not stop the import.
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

fn parse_xml<'a>(text: &'a str, path: &Path) -> Result<roxmltree::Document<'a>, TorcsError> {
    roxmltree::Document::parse(text).map_err(|e| {
        let pos = e.pos();
        TorcsError::Xml {
            path: path.to_owned(),
            line: pos.row,
            column: pos.col,
            message: e.to_string(),
        }
    })
}

fn xml_error(doc: &roxmltree::Document, path: &Path, byte: usize, message: String) -> TorcsError {
    let pos = doc.text_pos_at(byte);
    TorcsError::Xml {
        path: path.to_owned(),
        line: pos.row,
        column: pos.col,
        message,
    }
}

/// Blanks the document type declaration (keeping line breaks, so positions stay right) after
/// reading its entity declarations, then replaces each reference to a declared entity outside
/// tags and comments: an external one by an element naming it, an internal one by its text.
fn prepare(
    text: &str,
    path: &Path,
    inherited: &HashMap<String, Entity>,
) -> Result<(String, HashMap<String, Entity>), TorcsError> {
    let mut entities = inherited.clone();
    let mut text = text.trim_start_matches('\u{feff}').to_owned();
    if let Some(start) = text.find("<!DOCTYPE") {
        let end = doctype_end(&text, start).ok_or_else(|| TorcsError::Xml {
            path: path.to_owned(),
            line: line_at(&text, start),
            column: 1,
            message: "the <!DOCTYPE declaration is not closed".to_owned(),
        })?;
        let dir = path.parent().unwrap_or_else(|| Path::new("."));
        for (name, entity) in entity_declarations(&text[start..end]) {
            let entity = match entity {
                Entity::External(file) => Entity::External(dir.join(file)),
                internal @ Entity::Internal(_) => internal,
            };
            entities.insert(name, entity);
        }
        let blank: String = text[start..end]
            .chars()
            .map(|c| if c == '\n' { '\n' } else { ' ' })
            .collect();
        text.replace_range(start..end, &blank);
    }
    Ok((replace_references(&text, &entities), entities))
}

fn line_at(text: &str, byte: usize) -> u32 {
    let lines = text[..byte].bytes().filter(|&b| b == b'\n').count() + 1;
    u32::try_from(lines).unwrap_or(u32::MAX)
}

/// End (exclusive) of the `<!DOCTYPE ...>` starting at `start`, internal subset included.
fn doctype_end(text: &str, start: usize) -> Option<usize> {
    let rest = &text[start..];
    let close = rest.find('>')?;
    match rest.find('[') {
        Some(open) if open < close => {
            let subset_end = open + rest[open..].find(']')?;
            let after = &rest[subset_end + 1..];
            let gt = after.find('>')?;
            after[..gt]
                .trim()
                .is_empty()
                .then_some(start + subset_end + 1 + gt + 1)
        }
        _ => Some(start + close + 1),
    }
}

/// The general entities declared in a document type declaration.
fn entity_declarations(doctype: &str) -> Vec<(String, Entity)> {
    let mut found = Vec::new();
    let mut rest = doctype;
    while let Some(at) = rest.find("<!ENTITY") {
        rest = &rest[at + "<!ENTITY".len()..];
        let decl_end = rest.find('>').unwrap_or(rest.len());
        let decl = rest[..decl_end].trim();
        rest = &rest[decl_end..];
        if decl.starts_with('%') {
            continue; // A parameter entity: only used inside the DTD.
        }
        let mut parts = decl.splitn(2, char::is_whitespace);
        let (Some(name), Some(body)) = (parts.next(), parts.next()) else {
            continue;
        };
        let body = body.trim();
        let quoted = |s: &str| -> Option<String> {
            let s = s.trim();
            let q = s.chars().next().filter(|c| *c == '"' || *c == '\'')?;
            let end = s[1..].find(q)?;
            Some(s[1..=end].to_owned())
        };
        let entity = if let Some(system) = body.strip_prefix("SYSTEM") {
            quoted(system).map(|f| Entity::External(PathBuf::from(f)))
        } else if let Some(public) = body.strip_prefix("PUBLIC") {
            // PUBLIC "id" "file": the second literal is the file.
            let public = public.trim();
            quoted(public).and_then(|id| {
                quoted(&public[id.len() + 2..]).map(|f| Entity::External(PathBuf::from(f)))
            })
        } else {
            quoted(body).map(Entity::Internal)
        };
        if let Some(entity) = entity {
            found.push((name.to_owned(), entity));
        }
    }
    found
}

fn replace_references(text: &str, entities: &HashMap<String, Entity>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("<!--") {
            let end = after.find("-->").map_or(rest.len(), |e| e + 4 + 3);
            out.push_str(&rest[..end]);
            rest = &rest[end..];
        } else if rest.starts_with("<![CDATA[") {
            let end = rest.find("]]>").map_or(rest.len(), |e| e + 3);
            out.push_str(&rest[..end]);
            rest = &rest[end..];
        } else if rest.starts_with('<') {
            // A tag: copied as it is (attribute values keep their own references).
            let end = tag_end(rest);
            out.push_str(&rest[..end]);
            rest = &rest[end..];
        } else if rest.starts_with('&') {
            let name_end = rest[1..]
                .find(|c: char| !(c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | ':')))
                .map_or(rest.len(), |e| e + 1);
            let name = &rest[1..name_end];
            match (entities.get(name), rest[name_end..].starts_with(';')) {
                (Some(Entity::External(_)), true) => {
                    out.push('<');
                    out.push_str(ENTITY_ELEMENT);
                    out.push_str(" name=\"");
                    out.push_str(name);
                    out.push_str("\"/>");
                    rest = &rest[name_end + 1..];
                }
                (Some(Entity::Internal(value)), true) => {
                    out.push_str(value);
                    rest = &rest[name_end + 1..];
                }
                _ => {
                    out.push('&');
                    rest = &rest[1..];
                }
            }
        } else {
            let next = rest.find(['<', '&']).unwrap_or(rest.len());
            out.push_str(&rest[..next]);
            rest = &rest[next..];
        }
    }
    out
}

/// Length of the tag at the start of `s` (up to and including its `>`, outside quotes).
fn tag_end(s: &str) -> usize {
    let mut quote: Option<char> = None;
    for (i, c) in s.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (None, '"' | '\'') => quote = Some(c),
            (None, '>') => return i + 1,
            _ => {}
        }
    }
    s.len()
}

fn fill(
    doc: &roxmltree::Document,
    lines: &LineIndex,
    node: roxmltree::Node,
    section: &mut Section,
    file: &Arc<Path>,
    entities: &HashMap<String, Entity>,
    depth: usize,
) -> Result<(), TorcsError> {
    for child in node.children().filter(roxmltree::Node::is_element) {
        let line = lines.row(child.range().start);
        let required = |attr: &str| {
            child.attribute(attr).ok_or_else(|| {
                xml_error(
                    doc,
                    file,
                    child.range().start,
                    format!("<{}> without a '{attr}' attribute", child.tag_name().name()),
                )
            })
        };
        match child.tag_name().name() {
            "section" => {
                let mut sub = Section {
                    name: required("name")?.to_owned(),
                    file: file.clone(),
                    line,
                    attributes: Vec::new(),
                    sections: Vec::new(),
                };
                fill(doc, lines, child, &mut sub, file, entities, depth)?;
                section.sections.push(sub);
            }
            "attnum" => {
                let name = required("name")?.to_owned();
                let bad = |message: String| TorcsError::Value {
                    path: file.to_path_buf(),
                    line,
                    attribute: name.clone(),
                    message,
                };
                let raw = required("val")?;
                let value = parse_number(raw)
                    .ok_or_else(|| bad(format!("value '{raw}' is not a finite number")))?;
                let value = match child.attribute("unit") {
                    Some(unit) => units::to_si(unit, value).map_err(bad)?,
                    None => value,
                };
                section.attributes.push(Attribute {
                    name,
                    value: Value::Number(value),
                    line,
                });
            }
            "attstr" => section.attributes.push(Attribute {
                name: required("name")?.to_owned(),
                value: Value::Text(child.attribute("val").unwrap_or_default().to_owned()),
                line,
            }),
            ENTITY_ELEMENT => {
                let name = required("name")?;
                if let Some(Entity::External(target)) = entities.get(name) {
                    include(file, name, target, section, entities, depth + 1)?;
                }
            }
            _ => {} // Unknown elements carry nothing TORCS reads.
        }
    }
    Ok(())
}

/// Reads the fragment `target` (the file of entity `name`) into `section`.
fn include(
    from: &Path,
    name: &str,
    target: &Path,
    section: &mut Section,
    entities: &HashMap<String, Entity>,
    depth: usize,
) -> Result<(), TorcsError> {
    let entity_error = |reason: String| TorcsError::Entity {
        path: from.to_owned(),
        name: name.to_owned(),
        target: target.to_owned(),
        reason,
    };
    if depth > MAX_INCLUDE_DEPTH {
        return Err(entity_error(format!(
            "files are included more than {MAX_INCLUDE_DEPTH} deep (an entity includes itself?)"
        )));
    }
    let bytes = std::fs::read(target).map_err(|e| entity_error(e.to_string()))?;
    let mut text = String::from_utf8_lossy(&bytes).into_owned();
    // The fragment's own XML declaration cannot stand inside an element: blank it.
    if let Some(start) = text.find("<?xml")
        && let Some(len) = text[start..].find("?>")
    {
        text.replace_range(start..start + len + 2, &" ".repeat(len + 2));
    }
    let (prepared, inner) = prepare(&text, target, entities)?;
    let wrapped = format!("<{FRAGMENT_ELEMENT}>{prepared}</{FRAGMENT_ELEMENT}>");
    let doc = parse_xml(&wrapped, target)?;
    let file: Arc<Path> = Arc::from(target);
    let lines = LineIndex::new(doc.input_text());
    fill(
        &doc,
        &lines,
        doc.root_element(),
        section,
        &file,
        &inner,
        depth,
    )
}

fn parse_number(raw: &str) -> Option<f64> {
    let s = raw.trim();
    let value = if let Some(hex) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(hex, 16).ok().map(|v| v as f64)
    } else {
        s.parse::<f64>().ok()
    }?;
    value.is_finite().then_some(value)
}
