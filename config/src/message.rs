//! What loading, checking and saving settings has to tell the user.
//!
//! Every message names the file (when it comes from one), the line and column (when the
//! problem has a position), the field path (when it concerns one field) and what happened.
//! Its [`Display`](std::fmt::Display) form is one line, ready for the log and the UI:
//!
//! ```text
//! /home/ann/.config/gripline/settings.ron:3:14: error: expected a `,` ... ; defaults in use, the broken file is kept as settings.ron.broken-1763780000
//! /home/ann/.config/gripline/settings.ron: warning: graphics.fov_deg: 500 is out of range (10 to 120); clamped to 120
//! ```

use std::fmt;
use std::path::PathBuf;

/// How much a message matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Something was done for the user (a file migrated from an older schema).
    Info,
    /// A value was changed or ignored, the rest of the file was used (a value clamped, an
    /// unknown field ignored, a leftover temporary file removed).
    Warning,
    /// A whole file could not be used: its defaults are in use (the file is kept).
    Error,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        })
    }
}

/// One message about the settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingsMessage {
    /// How much it matters.
    pub severity: Severity,
    /// The file it concerns; `None` for a check of settings in memory.
    pub file: Option<PathBuf>,
    /// 1-based line and column in the file, when known.
    pub position: Option<(usize, usize)>,
    /// Field path (`graphics.fov_deg`, `axes[0].calibration.dead_zone`); empty when the
    /// message is about the whole file.
    pub field: String,
    /// What happened, e.g. "500 is out of range (10 to 120); clamped to 120".
    pub message: String,
}

impl SettingsMessage {
    /// A message about the settings in memory (no file).
    pub fn new(severity: Severity, field: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            severity,
            file: None,
            position: None,
            field: field.into(),
            message: message.into(),
        }
    }

    /// The same message, about `file` (unless it already names one).
    #[must_use]
    pub fn in_file(mut self, file: impl Into<PathBuf>) -> Self {
        if self.file.is_none() {
            self.file = Some(file.into());
        }
        self
    }

    /// The same message, at `line` and `column` of its file.
    #[must_use]
    pub fn at(mut self, line: usize, column: usize) -> Self {
        self.position = Some((line, column));
        self
    }
}

impl fmt::Display for SettingsMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{}", file.display())?;
            if let Some((line, column)) = self.position {
                write!(f, ":{line}:{column}")?;
            }
            f.write_str(": ")?;
        }
        write!(f, "{}: ", self.severity)?;
        if !self.field.is_empty() {
            write!(f, "{}: ", self.field)?;
        }
        f.write_str(&self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_has_file_position_field_and_message() {
        let m = SettingsMessage::new(Severity::Warning, "graphics.fov_deg", "clamped")
            .in_file("/c/settings.ron")
            .at(3, 14);
        assert_eq!(
            m.to_string(),
            "/c/settings.ron:3:14: warning: graphics.fov_deg: clamped"
        );
        let m = SettingsMessage::new(Severity::Error, "", "empty file");
        assert_eq!(m.to_string(), "error: empty file");
    }
}
