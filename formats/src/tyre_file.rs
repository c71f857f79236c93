//! Tyre files: `.tir` for Magic Formula, RON for every other family.
//!
//! A RON tyre file names the tyre and holds the parameters of one model:
//!
//! ```ron
//! (
//!     name: "Calspan 155SR13 (radial)",
//!     description: "Table 1 of the Calspan composite-slip model, converted to SI",
//!     model: Calspan(( /* the model's fields */ )),
//!     // Optional: a thermal, grip-window and wear model; absent, the tyre has none.
//!     thermal: Some((optimum_temp_c: 85.0 /* fields not given take the defaults */)),
//! )
//! ```
//!
//! The thermal parameters are those of `gripline_physics::tire::thermal::TyreThermalParams`;
//! `.tir` files give them in a `[GRIPLINE_THERMAL]` section (see [`crate::tir`]).
//!
//! Families: `SimplifiedPacejka`, `Brush`, `Calspan`, `SlipVelocity`, `FrictionTable`. The
//! parameters are validated after parsing; every error names the file, and the line and
//! column (syntax) or the field path (values).

use std::path::{Path, PathBuf};

use gripline_physics::tire::thermal::TyreThermalParams;
use gripline_physics::tire::{
    BrushTire, CalspanTire, FrictionTableTire, SimplifiedPacejka, SlipVelocityTire, Tire,
};
use gripline_physics::validate::{Validate, Validator};
use serde::{Deserialize, Serialize};

use crate::error::ConfigError;
use crate::{ron_text, tir};

/// The content of a RON tyre file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TyreFile {
    /// Human-readable name shown in menus and plots.
    pub name: String,
    /// Where the numbers come from, and what was estimated.
    #[serde(default)]
    pub description: String,
    /// The model and its parameters.
    pub model: TyreModelSpec,
    /// Thermal, grip-window and wear parameters; `None` (or absent): no thermal model, the
    /// tyre behaves exactly as without this field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thermal: Option<TyreThermalParams>,
}

/// The model of a RON tyre file (Magic Formula tyres come as `.tir` files instead).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum TyreModelSpec {
    /// Simplified Pacejka B, C, D, E (Wolfe, workshop III; `docs/sources.md`).
    SimplifiedPacejka(SimplifiedPacejka),
    /// Brush model (Wolfe, workshop VI).
    Brush(BrushTire),
    /// Calspan / U.S. DOT composite slip (Buffalo tyre model).
    Calspan(CalspanTire),
    /// Friction curve by slip velocity (Vehicle Physics Pro).
    SlipVelocity(SlipVelocityTire),
    /// Friction table by slip ratio and slip angle (VR-Design Studio).
    FrictionTable(FrictionTableTire),
}

impl TyreModelSpec {
    /// The runtime model.
    pub fn into_tire(self) -> Tire {
        match self {
            TyreModelSpec::SimplifiedPacejka(m) => Tire::SimplifiedPacejka(m),
            TyreModelSpec::Brush(m) => Tire::Brush(m),
            TyreModelSpec::Calspan(m) => Tire::Calspan(m),
            TyreModelSpec::SlipVelocity(m) => Tire::SlipVelocity(m),
            TyreModelSpec::FrictionTable(m) => Tire::FrictionTable(m),
        }
    }

    fn variant_name(&self) -> &'static str {
        match self {
            TyreModelSpec::SimplifiedPacejka(_) => "SimplifiedPacejka",
            TyreModelSpec::Brush(_) => "Brush",
            TyreModelSpec::Calspan(_) => "Calspan",
            TyreModelSpec::SlipVelocity(_) => "SlipVelocity",
            TyreModelSpec::FrictionTable(_) => "FrictionTable",
        }
    }
}

/// A tyre loaded from any supported file, ready to evaluate.
#[derive(Clone, Debug)]
pub struct LoadedTyre {
    /// Human-readable name (the RON `name`, or the `.tir` file's stem).
    pub name: String,
    /// The file it came from.
    pub source: PathBuf,
    /// The model.
    pub tire: Tire,
    /// Its thermal model, if the file gives one (RON `thermal`, `.tir` `[GRIPLINE_THERMAL]`).
    pub thermal: Option<TyreThermalParams>,
    /// Non-fatal remarks from loading (unknown `.tir` keys and such), each naming its place.
    pub warnings: Vec<String>,
}

/// Parses and validates the text of a RON tyre file.
///
/// # Errors
/// [`ConfigError::Syntax`] with line and column, or [`ConfigError::Invalid`] with field paths
/// such as `model.Calspan.mu0 must be finite and positive`.
pub fn parse_tyre_ron(text: &str, path: &Path) -> Result<TyreFile, ConfigError> {
    let file: TyreFile = ron_text::parse(text, path)?;
    let mut v = Validator::with_root("");
    v.require(!file.name.trim().is_empty(), "name", "must not be empty");
    v.within("model", |v| {
        v.within(file.model.variant_name(), |v| match &file.model {
            TyreModelSpec::SimplifiedPacejka(m) => m.validate(v),
            TyreModelSpec::Brush(m) => m.validate(v),
            TyreModelSpec::Calspan(m) => m.validate(v),
            TyreModelSpec::SlipVelocity(m) => m.validate(v),
            TyreModelSpec::FrictionTable(m) => m.validate(v),
        });
    });
    if let Some(thermal) = &file.thermal {
        v.nested("thermal", thermal);
    }
    v.finish().map_err(|violations| ConfigError::Invalid {
        path: path.to_owned(),
        violations,
    })?;
    Ok(file)
}

/// Loads a tyre of any family from `path`, choosing the format by extension
/// (`.tir` Magic Formula, `.ron` the others).
///
/// # Errors
/// Any [`ConfigError`]; each names the file.
pub fn load_tyre(path: &Path) -> Result<LoadedTyre, ConfigError> {
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match extension.as_deref() {
        Some("tir") => {
            let parsed = tir::load_tir(path)?;
            let name = path
                .file_stem()
                .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
            Ok(LoadedTyre {
                name,
                source: path.to_owned(),
                warnings: parsed.warnings.iter().map(ToString::to_string).collect(),
                tire: Tire::MagicFormula(Box::new(parsed.model)),
                thermal: parsed.thermal,
            })
        }
        Some("ron") => {
            let text = ron_text::read(path)?;
            let file = parse_tyre_ron(&text, path)?;
            Ok(LoadedTyre {
                name: file.name,
                source: path.to_owned(),
                tire: file.model.into_tire(),
                thermal: file.thermal,
                warnings: Vec::new(),
            })
        }
        _ => Err(ConfigError::UnknownFormat {
            path: path.to_owned(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<TyreFile, ConfigError> {
        parse_tyre_ron(text, Path::new("t.ron"))
    }

    #[test]
    fn syntax_errors_carry_line_and_column() {
        let err = parse("(\n  name: \"x\",\n  model: Brush((\n    mu: ,\n").unwrap_err();
        let ConfigError::Syntax { line, column, .. } = err else {
            panic!("expected a syntax error, got {err}");
        };
        assert_eq!(line, 4);
        assert!(column > 1);
        let err = parse("(name: \"x\", model: Quantum(()))").unwrap_err();
        assert!(err.to_string().starts_with("t.ron:1:"), "{err}");
        assert!(err.to_string().contains("Quantum"), "{err}");
    }

    #[test]
    fn invalid_values_are_reported_with_field_paths() {
        let text = r#"(
            name: " ",
            model: Brush((mu: -1.0, patch_length_m: 0.15, tread_stiffness_n_per_m2: 5e6)),
        )"#;
        let err = parse(text).unwrap_err();
        let ConfigError::Invalid { violations, .. } = &err else {
            panic!("expected invalid values, got {err}");
        };
        let paths: Vec<_> = violations.0.iter().map(|v| v.path.as_str()).collect();
        assert_eq!(paths, ["name", "model.Brush.mu"], "{err}");
        assert!(
            err.to_string()
                .starts_with("t.ron: invalid values: name must not be empty")
        );
    }

    #[test]
    fn shipped_style_file_round_trips() {
        let file = TyreFile {
            name: "Brush".into(),
            description: String::new(),
            model: TyreModelSpec::Brush(BrushTire::default()),
            thermal: None,
        };
        let text = crate::ron_text::to_pretty(&file).unwrap();
        assert!(!text.contains("thermal"), "{text}");
        assert_eq!(parse(&text).unwrap(), file);
        let warm = TyreFile {
            thermal: Some(TyreThermalParams::default()),
            ..file
        };
        let text = crate::ron_text::to_pretty(&warm).unwrap();
        assert_eq!(parse(&text).unwrap(), warm);
        // The file's field names are the physics' list of them, in order.
        let mut rest = text.as_str();
        for name in TyreThermalParams::FIELDS {
            let at = rest
                .find(&format!("{name}:"))
                .unwrap_or_else(|| panic!("{name} in {text}"));
            rest = &rest[at + name.len()..];
        }
    }

    #[test]
    fn thermal_fields_default_and_bad_values_are_reported_with_paths() {
        let text = r#"(
            name: "x",
            model: Brush((mu: 1.0, patch_length_m: 0.15, tread_stiffness_n_per_m2: 5e6)),
            thermal: Some((optimum_temp_c: 95.0)),
        )"#;
        let thermal = parse(text).unwrap().thermal.expect("a thermal model");
        assert!((thermal.optimum_temp_c - 95.0).abs() < 1e-12);
        assert!(
            (thermal.window_half_width_c - TyreThermalParams::default().window_half_width_c).abs()
                < 1e-12
        );
        let text = r#"(
            name: "x",
            model: Brush((mu: 1.0, patch_length_m: 0.15, tread_stiffness_n_per_m2: 5e6)),
            thermal: Some((optimum_temp_c: -1000.0, gas_heat_capacity_j_per_k: -1.0, min_grip_factor: 2.0)),
        )"#;
        let err = parse(text).unwrap_err();
        let ConfigError::Invalid { violations, .. } = &err else {
            panic!("expected invalid values, got {err}");
        };
        let paths: Vec<_> = violations.0.iter().map(|v| v.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "thermal.gas_heat_capacity_j_per_k",
                "thermal.optimum_temp_c",
                "thermal.min_grip_factor",
                "thermal.min_grip_factor",
            ],
            "{err}"
        );
        let err = parse(r#"(name: "x", model: Brush((mu: 1.0, patch_length_m: 0.15, tread_stiffness_n_per_m2: 5e6)), thermal: Some((optimum_temp_c: "hot")))"#)
            .unwrap_err();
        assert!(matches!(err, ConfigError::Syntax { .. }), "{err}");
        let err = parse(r#"(name: "x", model: Brush((mu: 1.0, patch_length_m: 0.15, tread_stiffness_n_per_m2: 5e6)), thermal: Some((optimum: 80.0)))"#)
            .unwrap_err();
        assert!(err.to_string().contains("optimum"), "{err}");
    }

    #[test]
    fn unknown_extension_is_refused() {
        let err = load_tyre(Path::new("tyre.txt")).unwrap_err();
        assert!(matches!(err, ConfigError::UnknownFormat { .. }));
    }

    #[test]
    fn missing_file_names_the_file() {
        let err = load_tyre(Path::new("/nonexistent/x.ron")).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("/nonexistent/x.ron: cannot read")
        );
    }
}
