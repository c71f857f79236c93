//! Magic Formula tyre property files (`.tir`).
//!
//! [`parse_tir`] reads the text of a `.tir` file into a [`MagicFormula`] tyre, and
//! [`load_tir`] does the same from a path. The format, as `MFeval` and ADAMS/MF-Tyre write it:
//!
//! - `[SECTION]` headers (`[MODEL]`, `[VERTICAL]`, `[LATERAL_COEFFICIENTS]`, ...). Keys are
//!   unique across sections, so sections only structure the file, with two exceptions:
//!   `[UNITS]`, whose entries are units, and table sections (`[SHAPE]`, or any section whose
//!   data starts with a `{column names}` line), which are skipped with a warning.
//! - `KEY = value` lines with any whitespace around `=`; keys are case-insensitive. Values are
//!   numbers (`61`, `1.5e+05`, `-.3`, Fortran's `1.5D+05`) or quoted strings (`'meter'`,
//!   `"LEFT"`).
//! - Comments: lines starting with `$` or `!`, and the rest of a line after a value from a
//!   `$` or `!` on.
//! - LF or CRLF line ends, an optional UTF-8 byte-order mark.
//!
//! # Keys
//!
//! `FITTYP` (6 or 21 for MF 5.2, 61 for MF 6.1, 62 for MF 6.2) is required, and so are the
//! coefficients no real fit lacks and that would silently give a different tyre if defaulted:
//! `FNOMIN`, `UNLOADED_RADIUS`, `PCX1`, `PDX1`, `PKX1`, `PCY1`, `PDY1`, `PKY1`, `QBZ1`,
//! `QCZ1`, `QDZ1`, and for MF 6.x `NOMPRES`. Every other coefficient takes `MFeval`'s default
//! when missing (scaling factors 1, most others 0; see
//! [`MfCoefficients`]); the missing ones that the force and moment equations use and whose
//! default is not zero are listed in one warning. Header entries (`FILE_TYPE`,
//! `FILE_VERSION`, `TYRESIDE`, `USE_MODE`, ...) are kept in [`ParsedTir::header`]. A key
//! nobody knows is ignored with a warning naming it and its line; so are the keys that `MFeval`
//! does not use (`LCZ`, `LGAX`, `LGAY`, `LGAZ`, `LMUV`, `QBZ6`, `QDZ5`, `QTZ1`, `MBELT`).
//!
//! # Units
//!
//! The model works in SI units (m, N, kg, s, Pa, rad). A file whose `[UNITS]` name other
//! units for `LENGTH`, `FORCE`, `MASS`, `TIME` or `PRESSURE` (e.g. `LENGTH = 'mm'`,
//! `FORCE = 'kN'`, `PRESSURE = 'bar'`, `'psi'`, `'inch'`, `'lbf'`) is converted: each
//! coefficient with a dimension (radius, load, stiffness, speed, pressure, ...) is scaled;
//! Magic Formula shape coefficients are dimensionless and stay as they are. Without a
//! `PRESSURE` unit, pressures are in `FORCE/LENGTH²`. Angles must be in radians: a file in
//! degrees is refused, since every camber and slip-angle coefficient would need its own
//! conversion.
//!
//! # Gripline's thermal section
//!
//! An optional `[GRIPLINE_THERMAL]` section gives the tyre a thermal, grip-window and wear
//! model ([`TyreThermalParams`]; see `gripline_physics::tire::thermal`). Its keys are the
//! parameter names (`OPTIMUM_TEMP_C = 85`, `TREAD_HEAT_CAPACITY_J_PER_K = 4000`, any case),
//! always in the SI units and degrees Celsius their names say (`[UNITS]` does not apply);
//! keys it does not give take the defaults of a street performance tyre, so an empty section
//! gives those. A value must be a finite number (an error with its line otherwise), an unknown
//! key in the section is ignored with a warning, and values out of range are refused with
//! their key (`[GRIPLINE_THERMAL].optimum_temp_c must be ...`). Other programs that read
//! `.tir` files skip sections they do not know, as this parser does. A file without the
//! section has no thermal model: the tyre behaves exactly as it always did.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use gripline_physics::tire::TyreSide;
use gripline_physics::tire::magic_formula::{Dimension, MagicFormula, MfCoefficients, MfVersion};
use gripline_physics::tire::thermal::TyreThermalParams;
use gripline_physics::validate::{Validate, Validator, Violations};

mod keys;

use keys::{
    HEADER_KEYS, IGNORED_KEYS, RANGE_KEYS, REQUIRED, REQUIRED_MF6, THERMAL_SECTION, UNIT_KEYS,
    UNIT_TABLE, USED_WITH_DEFAULT, coefficient_key, find_key,
};

/// A `.tir` file read into a tyre model.
#[derive(Clone, Debug)]
pub struct ParsedTir {
    /// The tyre, input limits off (call [`MagicFormula::with_input_limits`] to turn them on).
    pub model: MagicFormula,
    /// Everything that was ignored or defaulted, in file order.
    pub warnings: Vec<TirWarning>,
    /// The file's `FITTYP` as written (6 and 21 are both MF 5.2).
    pub fittyp: i64,
    /// The file's `TYRESIDE` (`LEFT` or `RIGHT`, upper case), if it gives one. The model
    /// carries it as its measured side ([`MagicFormula::measured_side`], left when absent); its
    /// own evaluation does not mirror, as `MFeval`'s does not for a tyre in isolation, but a
    /// vehicle runs it mirrored on the other side of the car
    /// (`gripline_physics::tire::Tire::on_side`).
    pub tyre_side: Option<String>,
    /// The units the file declared (and that its values were converted from).
    pub units: TirUnits,
    /// Header entries that are not coefficients (`FILE_TYPE`, `FILE_VERSION`,
    /// `PROPERTY_FILE_FORMAT`, `USE_MODE`, ...): upper-case key and the value as written
    /// (quotes removed), in file order.
    pub header: Vec<(String, String)>,
    /// Coefficient keys the file does not give, which took `MFeval`'s defaults.
    pub defaulted: Vec<&'static str>,
    /// The thermal model of the `[GRIPLINE_THERMAL]` section, if the file has one.
    pub thermal: Option<TyreThermalParams>,
}

/// The units of a `.tir` file's `[UNITS]` section, as written (SI when absent).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TirUnits {
    /// `LENGTH` (default `meter`).
    pub length: String,
    /// `FORCE` (default `newton`).
    pub force: String,
    /// `ANGLE` (default `radians`; nothing else is accepted).
    pub angle: String,
    /// `MASS` (default `kg`).
    pub mass: String,
    /// `TIME` (default `second`).
    pub time: String,
    /// `PRESSURE`, when the file names one (otherwise `FORCE/LENGTH²`).
    pub pressure: Option<String>,
}

impl Default for TirUnits {
    fn default() -> Self {
        Self {
            length: "meter".to_owned(),
            force: "newton".to_owned(),
            angle: "radians".to_owned(),
            mass: "kg".to_owned(),
            time: "second".to_owned(),
            pressure: None,
        }
    }
}

/// Something in a `.tir` file that was ignored or defaulted; the file still loads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TirWarning {
    /// The file (or the name given to [`parse_tir`]).
    pub file: String,
    /// 1-based line, when the warning concerns one line.
    pub line: Option<usize>,
    /// The key concerned, upper case, when there is one.
    pub key: Option<String>,
    /// What happened.
    pub message: String,
}

impl fmt::Display for TirWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.file, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

/// Why a `.tir` file could not be read. Every variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum TirError {
    /// The file could not be read.
    #[error("{path}: cannot read: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        #[source]
        source: std::io::Error,
    },
    /// A line is not a comment, a section header or `KEY = value`, or its value is not what
    /// the key needs.
    #[error("{file}:{line}: {message}")]
    Syntax {
        /// The file.
        file: String,
        /// 1-based line.
        line: usize,
        /// What was expected and what was found.
        message: String,
    },
    /// Required keys are missing.
    #[error("{file}: missing required key{} {} (a Magic Formula property file must give {})",
        if keys.len() == 1 { "" } else { "s" }, keys.join(", "),
        if keys.len() == 1 { "it" } else { "them" })]
    MissingKeys {
        /// The file.
        file: String,
        /// The missing keys, upper case.
        keys: Vec<String>,
    },
    /// `FITTYP` names no supported Magic Formula version.
    #[error(
        "{file}:{line}: unsupported FITTYP {value}: expected 6 or 21 (MF 5.2), 61 (MF 6.1) or 62 (MF 6.2)"
    )]
    UnsupportedFittyp {
        /// The file.
        file: String,
        /// 1-based line of `FITTYP`.
        line: usize,
        /// The value as written.
        value: String,
    },
    /// A unit in `[UNITS]` is unknown or cannot be converted.
    #[error("{file}:{line}: {quantity} = '{unit}': {message}")]
    Unit {
        /// The file.
        file: String,
        /// 1-based line.
        line: usize,
        /// `LENGTH`, `FORCE`, ...
        quantity: String,
        /// The unit as written.
        unit: String,
        /// Why it is refused.
        message: String,
    },
    /// The file parsed, but its coefficients make no physical sense.
    #[error("{file}: invalid coefficients: {violations}")]
    Invalid {
        /// The file.
        file: String,
        /// Every problem, each with its key.
        violations: Violations,
    },
}

/// A value as written: a quoted string or bare text.
enum Value<'a> {
    Quoted(&'a str),
    Bare(&'a str),
}

impl Value<'_> {
    fn text(&self) -> &str {
        match self {
            Value::Quoted(s) | Value::Bare(s) => s,
        }
    }
}

/// Reads the `.tir` file at `path` (see [`parse_tir`]).
///
/// Bytes that are not UTF-8 (Latin-1 comments, say) are replaced, which only matters inside
/// comments.
///
/// # Errors
/// [`TirError::Io`] when the file cannot be read; otherwise as [`parse_tir`].
pub fn load_tir(path: &Path) -> Result<ParsedTir, TirError> {
    let bytes = std::fs::read(path).map_err(|source| TirError::Io {
        path: path.to_owned(),
        source,
    })?;
    let text = String::from_utf8_lossy(&bytes);
    parse_tir(&text, &path.display().to_string())
}

/// Parses the text of a `.tir` file; `source_name` names it in warnings and errors.
///
/// # Errors
/// [`TirError::Syntax`] for a malformed line or value, [`TirError::MissingKeys`],
/// [`TirError::UnsupportedFittyp`], [`TirError::Unit`], or [`TirError::Invalid`] when the
/// coefficients fail [`Validate`].
pub fn parse_tir(text: &str, source_name: &str) -> Result<ParsedTir, TirError> {
    Parser::new(source_name).run(text)
}

struct Parser {
    file: String,
    warnings: Vec<TirWarning>,
    header: Vec<(String, String)>,
    /// Coefficient values as written (file units), with their line.
    values: HashMap<&'static str, (f64, usize)>,
    fittyp: Option<(String, usize)>,
    tyre_side: Option<String>,
    /// Declared units, with their line.
    units: HashMap<&'static str, (String, usize)>,
    /// The `[GRIPLINE_THERMAL]` section's parameters, once its header was seen.
    thermal: Option<TyreThermalParams>,
}

/// Text up to a trailing `$` or `!` comment.
fn strip_comment(s: &str) -> &str {
    s.find(['$', '!']).map_or(s, |i| &s[..i])
}

/// Parses a number as `.tir` files write them: Rust float syntax plus Fortran `D` exponents.
fn parse_number(text: &str) -> Option<f64> {
    let value = match text.parse::<f64>() {
        Ok(v) => v,
        Err(_) if text.contains(['d', 'D']) => text.replace(['d', 'D'], "e").parse().ok()?,
        Err(_) => return None,
    };
    value.is_finite().then_some(value)
}

impl Parser {
    fn new(file: &str) -> Self {
        Self {
            file: file.to_owned(),
            warnings: Vec::new(),
            header: Vec::new(),
            values: HashMap::new(),
            fittyp: None,
            tyre_side: None,
            units: HashMap::new(),
            thermal: None,
        }
    }

    fn syntax(&self, line: usize, message: impl Into<String>) -> TirError {
        TirError::Syntax {
            file: self.file.clone(),
            line,
            message: message.into(),
        }
    }

    fn warn(&mut self, line: Option<usize>, key: Option<&str>, message: String) {
        self.warnings.push(TirWarning {
            file: self.file.clone(),
            line,
            key: key.map(str::to_owned),
            message,
        });
    }

    fn run(mut self, text: &str) -> Result<ParsedTir, TirError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        // Old Mac files end lines with CR alone.
        let lines: Vec<&str> = if text.contains('\n') {
            text.lines().collect()
        } else {
            text.split('\r').collect()
        };
        let mut section = String::new();
        let mut skipping_table = false;
        for (index, raw) in lines.iter().enumerate() {
            let line_no = index + 1;
            let line = raw.trim();
            if line.is_empty() || line.starts_with('$') || line.starts_with('!') {
                continue;
            }
            if let Some(rest) = line.strip_prefix('[') {
                let header = strip_comment(rest).trim_end();
                let Some(name) = header.strip_suffix(']') else {
                    return Err(self.syntax(
                        line_no,
                        format!("expected `]` to close the section header, found `{line}`"),
                    ));
                };
                let name = name.trim();
                if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    return Err(self.syntax(
                        line_no,
                        format!(
                            "expected a section name (letters, digits and `_`) between `[` and `]`, found `{line}`"
                        ),
                    ));
                }
                section = name.to_ascii_uppercase();
                if section == THERMAL_SECTION && self.thermal.is_none() {
                    self.thermal = Some(TyreThermalParams::default());
                }
                skipping_table = section == "SHAPE";
                if skipping_table {
                    self.warn(
                        Some(line_no),
                        None,
                        "[SHAPE] table ignored (not used by the Magic Formula)".to_owned(),
                    );
                }
                continue;
            }
            if skipping_table {
                continue;
            }
            if line.starts_with('{') {
                skipping_table = true;
                self.warn(
                    Some(line_no),
                    None,
                    format!("table data of section [{section}] ignored"),
                );
                continue;
            }
            self.key_value(line, line_no, &section)?;
        }
        self.finish()
    }

    /// One `KEY = value` line.
    fn key_value(&mut self, line: &str, line_no: usize, section: &str) -> Result<(), TirError> {
        let Some((key_text, rest)) = line.split_once('=') else {
            return Err(self.syntax(
                line_no,
                format!(
                    "expected `KEY = value`, a `[SECTION]` header or a comment (`$` or `!`), found `{line}`"
                ),
            ));
        };
        let key_text = key_text.trim();
        if key_text.is_empty()
            || !key_text
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            return Err(self.syntax(
                line_no,
                format!(
                    "expected a key name (letters, digits and `_`) before `=`, found `{key_text}`"
                ),
            ));
        }
        let key = key_text.to_ascii_uppercase();
        let value = self.value(rest.trim_start(), line_no, &key)?;
        if section == THERMAL_SECTION {
            return self.thermal_value(&key, &value, line_no);
        }

        if let Some(quantity) = find_key(UNIT_KEYS, &key)
            && (section == "UNITS" || matches!(value, Value::Quoted(_)))
        {
            self.units
                .insert(quantity, (value.text().trim().to_owned(), line_no));
            return Ok(());
        }
        if section == "UNITS" {
            self.warn(
                Some(line_no),
                Some(&key),
                format!("unit {key} ignored (only LENGTH, FORCE, ANGLE, MASS, TIME and PRESSURE are used)"),
            );
            return Ok(());
        }
        if key == "FITTYP" {
            self.fittyp = Some((value.text().trim().to_owned(), line_no));
            return Ok(());
        }
        if find_key(HEADER_KEYS, &key).is_some() {
            let text = value.text().trim().to_owned();
            if key == "TYRESIDE" {
                let side = text.to_ascii_uppercase();
                if side != "LEFT" && side != "RIGHT" {
                    self.warn(
                        Some(line_no),
                        Some(&key),
                        format!("TYRESIDE '{text}' is neither LEFT nor RIGHT"),
                    );
                }
                self.tyre_side = Some(side);
            }
            self.header.push((key, text));
            return Ok(());
        }
        if let Some(name) = coefficient_key(&key) {
            let number = match value {
                Value::Quoted(s) => {
                    return Err(self.syntax(
                        line_no,
                        format!("expected a number for {key}, found the quoted text '{s}'"),
                    ));
                }
                Value::Bare(s) => parse_number(s).ok_or_else(|| {
                    self.syntax(
                        line_no,
                        format!("expected a finite number for {key}, found `{s}`"),
                    )
                })?,
            };
            if let Some((_, first)) = self.values.insert(name, (number, line_no)) {
                self.warn(
                    Some(line_no),
                    Some(&key),
                    format!("{key} given again (first on line {first}); the last value is used"),
                );
            }
            return Ok(());
        }
        if find_key(IGNORED_KEYS, &key).is_some() {
            self.warn(
                Some(line_no),
                Some(&key),
                format!("{key} ignored: MFeval's Magic Formula equations do not use it"),
            );
        } else {
            self.warn(
                Some(line_no),
                Some(&key),
                format!("unknown key {key} ignored"),
            );
        }
        Ok(())
    }

    /// One `KEY = value` line of the `[GRIPLINE_THERMAL]` section.
    fn thermal_value(&mut self, key: &str, value: &Value, line_no: usize) -> Result<(), TirError> {
        let number = match value {
            Value::Bare(s) => parse_number(s),
            Value::Quoted(_) => None,
        }
        .ok_or_else(|| {
            self.syntax(
                line_no,
                format!(
                    "expected a finite number for {key} in [{THERMAL_SECTION}], found `{}`",
                    value.text()
                ),
            )
        })?;
        let field = self
            .thermal
            .get_or_insert_with(TyreThermalParams::default)
            .field_mut(key);
        match field {
            Some(field) => *field = number,
            None => self.warn(
                Some(line_no),
                Some(key),
                format!(
                    "unknown key {key} in [{THERMAL_SECTION}] ignored (known: {})",
                    TyreThermalParams::FIELDS.join(", ").to_ascii_uppercase()
                ),
            ),
        }
        Ok(())
    }

    /// The value after `=`: a quoted string or bare text, trailing comment removed.
    fn value<'a>(&self, rest: &'a str, line_no: usize, key: &str) -> Result<Value<'a>, TirError> {
        if let Some(quote) = rest.chars().next().filter(|c| *c == '\'' || *c == '"') {
            let body = &rest[1..];
            let Some(end) = body.find(quote) else {
                return Err(self.syntax(
                    line_no,
                    format!("unterminated quoted value for {key}: expected a closing {quote}"),
                ));
            };
            let after = body[end + 1..].trim_start();
            if !(after.is_empty() || after.starts_with('$') || after.starts_with('!')) {
                return Err(self.syntax(
                    line_no,
                    format!(
                        "unexpected `{after}` after the quoted value of {key}: expected the end of the line or a comment"
                    ),
                ));
            }
            return Ok(Value::Quoted(&body[..end]));
        }
        let text = strip_comment(rest).trim();
        if text.is_empty() {
            return Err(self.syntax(line_no, format!("expected a value after `{key} =`")));
        }
        Ok(Value::Bare(text))
    }

    /// Conversion factor from the file's unit of `quantity` to SI.
    fn unit_factor(&self, quantity: &'static str) -> Result<f64, TirError> {
        let Some((unit, line)) = self.units.get(quantity) else {
            return Ok(1.0);
        };
        let name = unit.to_ascii_lowercase().replace([' ', '-'], "_");
        if quantity == "ANGLE" && matches!(name.as_str(), "degree" | "degrees" | "deg") {
            return Err(TirError::Unit {
                file: self.file.clone(),
                line: *line,
                quantity: quantity.to_owned(),
                unit: unit.clone(),
                message: "angles in degrees are not supported: Magic Formula coefficients \
                          must be per radian (convert the file to radians)"
                    .to_owned(),
            });
        }
        let factor = UNIT_TABLE
            .iter()
            .filter(|(q, _, _)| *q == quantity)
            .find(|(_, names, _)| names.contains(&name.as_str()))
            .map(|(_, _, factor)| *factor);
        factor.ok_or_else(|| TirError::Unit {
            file: self.file.clone(),
            line: *line,
            quantity: quantity.to_owned(),
            unit: unit.clone(),
            message: format!("unknown {} unit", quantity.to_ascii_lowercase()),
        })
    }

    fn finish(mut self) -> Result<ParsedTir, TirError> {
        // Version.
        let Some((fittyp_text, fittyp_line)) = self.fittyp.clone() else {
            return Err(TirError::MissingKeys {
                file: self.file,
                keys: vec!["FITTYP".to_owned()],
            });
        };
        let fittyp = fittyp_text.parse::<i64>().ok().or_else(|| {
            let value = parse_number(&fittyp_text)?;
            #[allow(clippy::cast_possible_truncation)]
            ((value.fract() == 0.0) && value.abs() < 1e6).then_some(value as i64)
        });
        let Some((fittyp, version)) =
            fittyp.and_then(|f| MfVersion::from_fittyp(f).map(|v| (f, v)))
        else {
            return Err(TirError::UnsupportedFittyp {
                file: self.file,
                line: fittyp_line,
                value: fittyp_text,
            });
        };

        // Required keys.
        let extra: &[&str] = if version.has_pressure() {
            REQUIRED_MF6
        } else {
            &[]
        };
        let missing: Vec<String> = REQUIRED
            .iter()
            .chain(extra)
            .filter(|k| !self.values.contains_key(**k))
            .map(|k| (*k).to_owned())
            .collect();
        if !missing.is_empty() {
            return Err(TirError::MissingKeys {
                file: self.file,
                keys: missing,
            });
        }

        // Units.
        let length = self.unit_factor("LENGTH")?;
        let force = self.unit_factor("FORCE")?;
        let mass = self.unit_factor("MASS")?;
        let time = self.unit_factor("TIME")?;
        self.unit_factor("ANGLE")?;
        let pressure = if self.units.contains_key("PRESSURE") {
            self.unit_factor("PRESSURE")?
        } else {
            force / (length * length)
        };
        let factor = |dimension: Dimension| match dimension {
            Dimension::None => 1.0,
            Dimension::Length => length,
            Dimension::Force => force,
            Dimension::Pressure => pressure,
            Dimension::Speed => length / time,
            Dimension::Mass => mass,
            Dimension::Inertia => mass * length * length,
            Dimension::Stiffness => force / length,
            Dimension::RotationalStiffness => force * length,
            Dimension::Damping => force * time / length,
            Dimension::Acceleration => length / (time * time),
            Dimension::Frequency => 1.0 / time,
        };

        // Coefficients.
        let mut coefficients = MfCoefficients::default();
        let mut defaulted = Vec::new();
        for &(key, _, dimension) in MfCoefficients::KEYS {
            match self.values.get(key) {
                Some(&(value, _)) => {
                    coefficients.set(key, value * factor(dimension));
                }
                None => defaulted.push(key),
            }
        }
        let relevant_defaults: Vec<String> = USED_WITH_DEFAULT
            .iter()
            .filter(|k| defaulted.contains(k))
            .filter(|k| version.has_pressure() || !matches!(**k, "INFLPRES" | "PKY6"))
            .map(|k| format!("{k} = {}", coefficients.get(k).unwrap_or_default()))
            .collect();
        if !relevant_defaults.is_empty() {
            let message = format!(
                "not in the file, MFeval's defaults used: {}",
                relevant_defaults.join(", ")
            );
            self.warn(None, None, message);
        }
        let missing_ranges: Vec<String> = RANGE_KEYS
            .iter()
            .filter(|k| defaulted.contains(k))
            .filter(|k| version.has_pressure() || !k.starts_with("PRES"))
            .map(|k| format!("{k} = {}", coefficients.get(k).unwrap_or_default()))
            .collect();
        if !missing_ranges.is_empty() {
            let message = format!(
                "input ranges not in the file; with input limits on, MFeval's defaults apply: {}",
                missing_ranges.join(", ")
            );
            self.warn(None, None, message);
        }

        // The side the data were measured on: `TYRESIDE`, left when absent (as `MFeval`).
        let measured_side = match self.tyre_side.as_deref() {
            Some("RIGHT") => TyreSide::Right,
            _ => TyreSide::Left,
        };
        let model = MagicFormula::new(version, coefficients).with_measured_side(measured_side);
        model.check().map_err(|violations| TirError::Invalid {
            file: self.file.clone(),
            violations,
        })?;
        if let Some(thermal) = &self.thermal {
            let mut v = Validator::with_root(&format!("[{THERMAL_SECTION}]"));
            thermal.validate(&mut v);
            v.finish().map_err(|violations| TirError::Invalid {
                file: self.file.clone(),
                violations,
            })?;
        }

        let mut units = TirUnits::default();
        for (quantity, (unit, _)) in &self.units {
            match *quantity {
                "LENGTH" => units.length.clone_from(unit),
                "FORCE" => units.force.clone_from(unit),
                "ANGLE" => units.angle.clone_from(unit),
                "MASS" => units.mass.clone_from(unit),
                "TIME" => units.time.clone_from(unit),
                _ => units.pressure = Some(unit.clone()),
            }
        }

        Ok(ParsedTir {
            model,
            warnings: self.warnings,
            fittyp,
            tyre_side: self.tyre_side,
            units,
            header: self.header,
            defaulted,
            thermal: self.thermal,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINIMAL: &str = "[MODEL]\nFITTYP = 61\n[COEFFICIENTS]\nFNOMIN = 4000\n\
        UNLOADED_RADIUS = 0.3\nNOMPRES = 2.2e5\nPCX1 = 1.6\nPDX1 = 1.2\nPKX1 = 20\n\
        PCY1 = 1.3\nPDY1 = 1.1\nPKY1 = -20\nQBZ1 = 10\nQCZ1 = 1.1\nQDZ1 = 0.1\n";

    #[test]
    fn minimal_file_parses() {
        let parsed = parse_tir(MINIMAL, "mini.tir").unwrap();
        assert_eq!(parsed.fittyp, 61);
        assert_eq!(parsed.model.version(), MfVersion::Mf61);
        assert!((parsed.model.coefficients().unloaded_radius - 0.3).abs() < 1e-15);
    }

    #[test]
    fn units_convert() {
        let text = MINIMAL
            .replace("FNOMIN = 4000", "FNOMIN = 4")
            .replace("UNLOADED_RADIUS = 0.3", "UNLOADED_RADIUS = 300")
            .replace("NOMPRES = 2.2e5", "NOMPRES = 2.2")
            + "[UNITS]\nLENGTH = 'mm'\nFORCE = 'kN'\nPRESSURE = 'bar'\nTIME='second'\n\
               [MODEL]\nLONGVL = 16700\n";
        let parsed = parse_tir(&text, "mm.tir").unwrap();
        let c = parsed.model.coefficients();
        assert!((c.fnomin - 4000.0).abs() < 1e-9);
        assert!((c.unloaded_radius - 0.3).abs() < 1e-12);
        assert!((c.nompres - 2.2e5).abs() < 1e-6);
        assert!((c.longvl - 16.7).abs() < 1e-12);
        assert_eq!(parsed.units.length, "mm");
    }

    #[test]
    fn degrees_are_refused() {
        let text = format!("[UNITS]\nANGLE = 'deg'\n{MINIMAL}");
        let err = parse_tir(&text, "deg.tir").unwrap_err().to_string();
        assert!(err.starts_with("deg.tir:2: ANGLE = 'deg'"), "{err}");
    }
}
