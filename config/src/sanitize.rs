//! Repairing settings instead of rejecting them: out-of-range values are clamped, values
//! that are not numbers take their default, impossible combinations are reset, and every
//! change is reported as a [`SettingsMessage`] with the field path and the old and new
//! values.
//!
//! After [`Sanitize::sanitize`], the value passes its [`Validate`] checks: the types do
//! their field-by-field repairs and then [`Sanitizer::ensure_valid`] resets whatever still
//! fails to its default, so a new check added to a `validate` can never let an invalid
//! value through.

use std::path::{Path, PathBuf};

use gripline_physics::validate::Validate;

use crate::message::{SettingsMessage, Severity};

/// Types that can repair themselves.
pub trait Sanitize {
    /// Repairs `self` in place, reporting each change into `s` with paths relative to its
    /// current prefix.
    fn sanitize(&mut self, s: &mut Sanitizer);

    /// Repairs `self` from an empty prefix and returns the changes made.
    fn sanitize_all(&mut self) -> Vec<SettingsMessage> {
        let mut s = Sanitizer::new(None);
        self.sanitize(&mut s);
        s.into_messages()
    }
}

/// Collects the repairs made, under a stack of path segments.
#[derive(Debug, Default)]
pub struct Sanitizer {
    file: Option<PathBuf>,
    prefix: Vec<String>,
    messages: Vec<SettingsMessage>,
}

impl Sanitizer {
    /// A sanitiser whose messages name `file`.
    pub fn new(file: Option<&Path>) -> Self {
        Self {
            file: file.map(Path::to_owned),
            prefix: Vec::new(),
            messages: Vec::new(),
        }
    }

    /// The messages collected.
    pub fn into_messages(self) -> Vec<SettingsMessage> {
        self.messages
    }

    /// Field path of `field` under the current prefix (`[i]` segments join without a dot).
    pub fn path_of(&self, field: &str) -> String {
        let mut path = String::new();
        for segment in self.prefix.iter().map(String::as_str).chain([field]) {
            if segment.is_empty() {
                continue;
            }
            if !path.is_empty() && !segment.starts_with('[') {
                path.push('.');
            }
            path.push_str(segment);
        }
        path
    }

    /// Records that `field` was changed (a warning).
    pub fn changed(&mut self, field: &str, message: impl Into<String>) {
        let mut m = SettingsMessage::new(Severity::Warning, self.path_of(field), message);
        m.file.clone_from(&self.file);
        self.messages.push(m);
    }

    /// Runs `f` with `field` pushed on the path.
    pub fn within(&mut self, field: &str, f: impl FnOnce(&mut Self)) {
        self.prefix.push(field.to_owned());
        f(self);
        self.prefix.pop();
    }

    /// Sanitises a nested value under `field`.
    pub fn nested(&mut self, field: &str, value: &mut impl Sanitize) {
        self.prefix.push(field.to_owned());
        value.sanitize(self);
        self.prefix.pop();
    }

    /// `value` must lie in `[lo, hi]`: clamped when outside, `default` when not a number.
    pub fn range(&mut self, field: &str, value: &mut f64, lo: f64, hi: f64, default: f64) {
        if value.is_nan() {
            self.changed(
                field,
                format!("NaN is not a number; set to the default {default}"),
            );
            *value = default;
        } else if *value < lo || *value > hi {
            let new = value.clamp(lo, hi);
            self.changed(
                field,
                format!("{value} is out of range ({lo} to {hi}); clamped to {new}"),
            );
            *value = new;
        }
    }

    /// `value` must be finite and strictly positive: `default` otherwise (a clamp to a tiny
    /// positive value would be as wrong as the zero).
    pub fn positive(&mut self, field: &str, value: &mut f64, default: f64) {
        if !(value.is_finite() && *value > 0.0) {
            self.changed(
                field,
                format!("{value} must be finite and positive; set to the default {default}"),
            );
            *value = default;
        }
    }

    /// `value` must be finite and not negative: negative values become 0, infinite and NaN
    /// values `default`.
    pub fn non_negative(&mut self, field: &str, value: &mut f64, default: f64) {
        if !value.is_finite() {
            self.changed(
                field,
                format!("{value} is not a finite number; set to the default {default}"),
            );
            *value = default;
        } else if *value < 0.0 {
            self.changed(field, format!("{value} is negative; clamped to 0"));
            *value = 0.0;
        }
    }

    /// `value` must lie in `[lo, hi]`: clamped when outside.
    pub fn range_u32(&mut self, field: &str, value: &mut u32, lo: u32, hi: u32) {
        if *value < lo || *value > hi {
            let new = (*value).clamp(lo, hi);
            self.changed(
                field,
                format!("{value} is out of range ({lo} to {hi}); clamped to {new}"),
            );
            *value = new;
        }
    }

    /// Last resort: if `value` still fails its checks, it is reset to `T::default()` and
    /// every remaining problem is reported.
    pub fn ensure_valid<T: Validate + Default>(&mut self, field: &str, value: &mut T) {
        if let Err(violations) = value.check() {
            self.changed(field, format!("{violations}; reset to the defaults"));
            *value = T::default();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_clamps_and_replaces_nan() {
        let mut s = Sanitizer::new(Some(Path::new("s.ron")));
        let mut a = 500.0;
        let mut b = f64::NAN;
        let mut c = 0.5;
        s.within("graphics", |s| {
            s.range("fov_deg", &mut a, 10.0, 120.0, 60.0);
            s.range("x", &mut b, 0.0, 1.0, 0.25);
            s.range("y", &mut c, 0.0, 1.0, 0.25);
        });
        assert_eq!((a, b, c), (120.0, 0.25, 0.5));
        let m = s.into_messages();
        assert_eq!(m.len(), 2);
        assert_eq!(
            m[0].to_string(),
            "s.ron: warning: graphics.fov_deg: 500 is out of range (10 to 120); clamped to 120"
        );
        assert_eq!(m[1].field, "graphics.x");
    }

    #[test]
    fn index_segments_join_without_a_dot() {
        let mut s = Sanitizer::new(None);
        s.within("axes", |s| {
            s.within("[2]", |s| {
                assert_eq!(s.path_of("dead_zone"), "axes[2].dead_zone");
            });
        });
    }
}
