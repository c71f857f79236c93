//! Track files: a name, a description and a [`TrackLayout`], in RON.
//!
//! ```ron
//! (
//!     name: "Proving ground",
//!     description: "Skidpad, lane change, straight, grades, surface tiles",
//!     layout: (
//!         closed: false,
//!         centre_line: [(x_m: 0.0, y_m: 0.0, z_m: 0.0, width_m: 30.0), /* ... */],
//!         pads: [(surface: Asphalt, shape: Rectangle(centre_x_m: 0.0, /* ... */))],
//!         // kerb, verge, objects, references...
//!     ),
//! )
//! ```
//!
//! Loading parses (syntax errors carry line and column), validates the layout (errors carry
//! field paths such as `layout.centre_line[3].width_m must be finite and positive`), then
//! builds the ground mesh, so a [`LoadedTrack`] is ready to drive on.

use std::path::{Path, PathBuf};

use gripline_physics::track::{TrackLayout, TrackMesh};
use gripline_physics::validate::Validator;
use serde::{Deserialize, Serialize};

use crate::error::ConfigError;
use crate::ron_text;

/// The content of a track file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrackFile {
    /// Human-readable name shown in menus.
    pub name: String,
    /// What the track is and what it is for.
    #[serde(default)]
    pub description: String,
    /// The geometry and surfaces.
    pub layout: TrackLayout,
}

/// A track loaded and built.
#[derive(Clone, Debug)]
pub struct LoadedTrack {
    /// Human-readable name.
    pub name: String,
    /// Its description.
    pub description: String,
    /// The file it came from.
    pub source: PathBuf,
    /// Every file its ground depends on: `source` first, then the files it includes (an
    /// imported TORCS track's shared `surfaces.xml`). A replay hashes them all.
    pub files: Vec<PathBuf>,
    /// The layout as written.
    pub layout: TrackLayout,
    /// The built ground, centre line, objects and references.
    pub mesh: TrackMesh,
}

impl LoadedTrack {
    /// Builds the ground of `layout`, read from `path` (a Gripline or an imported track).
    ///
    /// # Errors
    /// [`ConfigError::Track`] naming the file when the ground cannot be built.
    pub fn build(
        name: String,
        description: String,
        layout: TrackLayout,
        path: &Path,
    ) -> Result<Self, ConfigError> {
        let mesh = layout.build_mesh().map_err(|source| ConfigError::Track {
            path: path.to_owned(),
            source,
        })?;
        Ok(Self {
            name,
            description,
            source: path.to_owned(),
            files: vec![path.to_owned()],
            layout,
            mesh,
        })
    }
}

/// Parses and validates the text of a track file (without building its mesh).
///
/// # Errors
/// [`ConfigError::Syntax`] with line and column, or [`ConfigError::Invalid`] with field paths
/// under `layout`.
pub fn parse_track_ron(text: &str, path: &Path) -> Result<TrackFile, ConfigError> {
    let file: TrackFile = ron_text::parse(text, path)?;
    let mut v = Validator::with_root("");
    v.require(!file.name.trim().is_empty(), "name", "must not be empty");
    v.nested("layout", &file.layout);
    v.finish().map_err(|violations| ConfigError::Invalid {
        path: path.to_owned(),
        violations,
    })?;
    Ok(file)
}

/// Parses, validates and builds a track from its text.
///
/// # Errors
/// As [`parse_track_ron`], and [`ConfigError::Track`] when the ground cannot be built.
pub fn build_track_ron(text: &str, path: &Path) -> Result<LoadedTrack, ConfigError> {
    let file = parse_track_ron(text, path)?;
    LoadedTrack::build(file.name, file.description, file.layout, path)
}

/// Loads a Gripline track file (`.ron`) and builds its ground. A track to drive may also be
/// a TORCS / Speed Dreams track (`.xml`): `gripline-torcs`'s `load_any_track` takes both.
///
/// # Errors
/// Any [`ConfigError`]; each names the file.
pub fn load_track(path: &Path) -> Result<LoadedTrack, ConfigError> {
    let text = ron_text::read(path)?;
    build_track_ron(&text, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<TrackFile, ConfigError> {
        parse_track_ron(text, Path::new("t.ron"))
    }

    #[test]
    fn syntax_errors_carry_line_and_column() {
        let err = parse("(\n  name: \"x\",\n  layout: (\n    centre_line: [(x_m: 1.0, y_m: ,\n")
            .unwrap_err();
        let ConfigError::Syntax { line, column, .. } = err else {
            panic!("expected a syntax error, got {err}");
        };
        assert_eq!(line, 4);
        assert!(column > 20, "{column}");
        let err = parse("(name: \"x\", layout: (wiggle: 3))").unwrap_err();
        assert!(err.to_string().starts_with("t.ron:1:"), "{err}");
        assert!(err.to_string().contains("wiggle"), "{err}");
    }

    #[test]
    fn invalid_values_are_reported_with_field_paths() {
        let text = r#"(
            name: "Bad",
            layout: (
                centre_line: [
                    (x_m: 0.0, y_m: 0.0, z_m: 0.0, width_m: 10.0),
                    (x_m: 50.0, y_m: 0.0, z_m: 0.0, width_m: 10.0),
                    (x_m: 100.0, y_m: 0.0, z_m: 0.0, width_m: 10.0),
                    (x_m: 150.0, y_m: 0.0, z_m: 0.0, width_m: -2.0),
                ],
                verge: [(surface: Grass, width_m: 0.0)],
                objects: [Ring(kind: Cone, centre_x_m: 0.0, centre_y_m: 0.0, radius_m: 5.0, count: 0)],
            ),
        )"#;
        let err = parse(text).unwrap_err();
        let ConfigError::Invalid { violations, .. } = &err else {
            panic!("expected invalid values, got {err}");
        };
        let paths: Vec<_> = violations.0.iter().map(|v| v.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "layout.centre_line[3].width_m",
                "layout.verge[0].width_m",
                "layout.objects[0].Ring.count"
            ],
            "{err}"
        );
        assert!(
            err.to_string()
                .contains("layout.centre_line[3].width_m must be finite and positive"),
            "{err}"
        );
    }

    #[test]
    fn build_errors_name_the_file() {
        let text = r#"(
            name: "Floating cone",
            layout: (
                pads: [(surface: Asphalt, shape: Rectangle(centre_x_m: 0.0, centre_y_m: 0.0,
                        z_m: 0.0, length_m: 10.0, width_m: 10.0))],
                objects: [Single(kind: Cone, x_m: 100.0, y_m: 0.0)],
            ),
        )"#;
        let err = build_track_ron(text, Path::new("t.ron")).unwrap_err();
        assert!(matches!(err, ConfigError::Track { .. }), "{err}");
        assert!(
            err.to_string()
                .starts_with("t.ron: cannot build the track: object 0")
        );
    }

    #[test]
    fn layout_round_trips_through_ron() {
        let text = r#"(
            name: "Loop",
            layout: (
                closed: true,
                centre_line: [
                    (x_m: 0.0, y_m: 0.0, z_m: 0.0, width_m: 10.0),
                    (x_m: 100.0, y_m: 0.0, z_m: 1.0, banking_deg: 2.0, width_m: 10.0),
                    (x_m: 50.0, y_m: 80.0, z_m: 0.0, width_m: 10.0),
                ],
                kerb: (width_m: 1.0),
                verge: [(surface: Grass, width_m: 5.0, slope_pct: -2.0, corner_surface: Gravel)],
            ),
        )"#;
        let file = parse(text).expect("valid");
        let again = crate::ron_text::to_pretty(&file).expect("serialises");
        assert_eq!(parse(&again).expect("valid"), file);
        let built = build_track_ron(text, Path::new("t.ron")).expect("builds");
        assert!(built.mesh.length_m > 250.0);
    }
}
